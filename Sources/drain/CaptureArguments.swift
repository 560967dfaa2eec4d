import ArgumentParser
import DrainImport
import DrainTrace

/// How packet captures are read.
struct CaptureArguments: ParsableArguments {
    enum Link: String, ExpressibleByArgument, CaseIterable {
        case cellular, wifi

        var kind: LinkKind { self == .cellular ? .cellular : .wifi }
    }

    @Option(
        name: .customLong("device-ip"),
        help: ArgumentHelp(
            "The capturing device's IPv4 or IPv6 address (default: the busiest private address).", valueName: "ADDRESS"))
    var deviceIP: String?

    @Option(
        help: ArgumentHelp(
            "The radio every captured packet went over, overriding pcapng interface names (cellular or wifi).",
            valueName: "LINK"))
    var link: Link?

    func validate() throws {
        if let deviceIP, !CaptureOptions.isAddress(deviceIP) {
            throw ValidationError("--device-ip '\(deviceIP)' is not an IPv4 or IPv6 address")
        }
    }

    var options: CaptureOptions {
        CaptureOptions(deviceAddress: deviceIP, link: link?.kind)
    }
}
