import DrainTrace

extension LinkKind {
    /// The kind of a network interface, from its name (pcapng `if_name`, PKTAP):
    ///
    /// - cellular: `pdp_ip*` (iOS, macOS), `rmnet*` (Qualcomm Android), `ccmni*` (MediaTek
    ///   Android), `wwan*` (Linux, Windows);
    /// - Wi-Fi: `en` + digit (`en0`: Wi-Fi on iPhones, iPads and MacBooks), `wlan*`, `wl*`
    ///   (`wlp2s0`), `awdl*` and `llw*` (Apple's Wi-Fi peer-to-peer links);
    /// - `unspecified` for anything else (`eth0`, `enp3s0`, `lo0`, `utun3`…), so that the
    ///   model's default link applies.
    ///
    /// Matching is ASCII case-sensitive, as interface names are. O(1).
    init<Name: Collection<UInt8>>(interfaceName name: Name) {
        func starts(_ prefix: StaticString) -> Bool {
            prefix.withUTF8Buffer { name.starts(with: $0) }
        }
        if starts("pdp_ip") || starts("rmnet") || starts("ccmni") || starts("wwan") {
            self = .cellular
        } else if starts("wl") || starts("awdl") || starts("llw") {
            self = .wifi
        } else if starts("en"), name.count > 2, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(name.dropFirst(2).first!) {
            self = .wifi
        } else {
            self = .unspecified
        }
    }
}
