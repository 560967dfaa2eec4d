import DrainModel
import Foundation

/// A plausible phone for the rule tests. `DeviceModel` has no public memberwise initialiser,
/// so the value is decoded from its Codable form; only the numbers the rules and the pricer
/// read matter here, and each says where it comes from.
enum TestModel {
    static let wakeupJ = 0.00395
    static let diskPerOpJ = 0.0002
    static let diskPerMbJ = 0.01
    static let diskPerFsyncJ = 0.003
    static let memoryLimit = 2_000_000_000.0

    static let phone = make()

    /// The phone with another memory limit and rule thresholds (rule id → parameter → value).
    static func make(memoryLimit: Double = memoryLimit, thresholds: [String: [String: Double]]? = nil) -> DeviceModel {
        func sourced(_ value: Double, _ source: String) -> [String: Any] { ["value": value, "source": source] }
        var model: [String: Any] = [
            "name": "test-phone",
            "title": "Test phone (rule tests)",
            "cpu": [
                "activeW": sourced(1.2, "test fixture"),
                "wakeupJ": sourced(wakeupJ, "PowerTOP default model: 39.5 W per 10^4 wakeups/s"),
            ],
            "radio": [
                "defaultLink": "wifi", "cellular": "lte",
                "burstGapS": sourced(1.0, "GUIDANCE.md default burst gap"),
                "wifi": [
                    "activeW": sourced(0.403, "AT&T ARO WiFi.conf"), "tailS": sourced(0.25, "AT&T ARO WiFi.conf"),
                    "tailW": sourced(0.403, "AT&T ARO WiFi.conf"), "standbyW": sourced(0.02, "AT&T ARO WiFi.conf"),
                ],
            ],
            "disk": [
                "perOpJ": sourced(diskPerOpJ, "test fixture"), "perMbJ": sourced(diskPerMbJ, "test fixture"),
                "perFsyncJ": sourced(diskPerFsyncJ, "test fixture"),
            ],
            "display": ["perFrameJ": sourced(0.002, "test fixture"), "gpuW": sourced(0.5, "test fixture")],
            "location": [
                "bestW": sourced(0.28, "AT&T ARO GPS active"), "tenMetersW": sourced(0.2, "test fixture"),
                "hundredMetersW": sourced(0.1, "test fixture"), "kilometerW": sourced(0.02, "AT&T ARO GPS standby"),
            ],
            "sensors": [
                "accelerometerW": sourced(0.02, "test fixture"), "gyroscopeW": sourced(0.05, "test fixture"),
                "magnetometerW": sourced(0.03, "test fixture"), "otherW": sourced(0.05, "test fixture"),
            ],
            "memory": ["limitBytes": sourced(memoryLimit, "test fixture")],
            "battery": ["capacityWh": sourced(12.0, "test fixture")],
            "score": ["score90Mw": sourced(100, "test fixture"), "score50Mw": sourced(400, "test fixture")],
        ]
        if let thresholds {
            model["thresholds"] = thresholds.mapValues { $0.mapValues { sourced($0, "test model") } }
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: model)
            return try JSONDecoder().decode(DeviceModel.self, from: data)
        } catch {
            fatalError("the test model does not decode: \(error)")
        }
    }
}
