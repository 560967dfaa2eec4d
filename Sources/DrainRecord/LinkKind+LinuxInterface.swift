#if os(Linux)
import DrainTrace

extension LinkKind {
    /// The kind of a Linux network interface, from its name: `lo` loopback; `wl*` (`wlan0`,
    /// `wlp2s0`) Wi-Fi; `wwan*`, `rmnet*`, `ccmni*` cellular; `eth*`, `en*` (`enp3s0`)
    /// Ethernet; anything else (bridges, tunnels, `veth*`) unspecified, so the device model's
    /// default link prices it. O(1).
    init(linuxInterfaceName name: UnsafeRawBufferPointer) {
        func starts(_ prefix: StaticString) -> Bool {
            prefix.withUTF8Buffer { name.starts(with: $0) }
        }
        if name.elementsEqual("lo".utf8) {
            self = .loopback
        } else if starts("wl") {
            self = .wifi
        } else if starts("wwan") || starts("rmnet") || starts("ccmni") {
            self = .cellular
        } else if starts("eth") || starts("en") {
            self = .ethernet
        } else {
            self = .unspecified
        }
    }
}
#endif
