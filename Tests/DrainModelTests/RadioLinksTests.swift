import DrainTrace
import Testing
@testable import DrainModel

/// Which radio carries each link's traffic: its own for Wi-Fi and cellular, none for ethernet
/// and loopback, the model's default for an unstated link or a code no link has.
struct RadioLinksTests {
    @Test(arguments: [("iphone-lte", LinkKind.cellular), ("iphone-wifi", .wifi)])
    func eachLinkGoesToItsRadio(model name: String, defaultRadio: LinkKind) throws {
        let radio = try builtinModel(name).radio
        let links = RadioLinks(radio: radio)
        let expected: [LinkKind: LinkKind?] = [
            .wifi: .wifi, .cellular: .cellular, .unspecified: defaultRadio, .ethernet: nil, .loopback: nil,
        ]
        for (link, carrier) in expected {
            #expect(links.radio(for: link) == carrier)
            #expect(links.radio(forCode: link.rawValue) == carrier)
            #expect(DeviceRadios(radio: radio).radioLink(for: link) == carrier)
        }
        #expect(links.radio(forCode: 200) == defaultRadio)
        #expect(LinkKind.allCases.count == expected.count)
    }
}
