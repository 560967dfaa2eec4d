import DrainModel
import Foundation

/// A plausible phone for the rule tests. `DeviceModel` has no public memberwise initialiser,
/// so the value is decoded from its Codable form, written with the model files' snake_case
/// keys; only the numbers the rules and the pricer read matter here, and each says where it
/// comes from.
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
                "active_w": sourced(1.2, "test fixture"),
                "wakeup_j": sourced(wakeupJ, "PowerTOP default model: 39.5 W per 10^4 wakeups/s"),
            ],
            "radio": [
                "default_link": "wifi", "cellular": "lte",
                "burst_gap_s": sourced(1.0, "GUIDANCE.md default burst gap"),
                "lte": [
                    "promotion_s": sourced(0.26, "AT&T ARO lte.conf T_PROMOTION"),
                    "promotion_w": sourced(1.21, "AT&T ARO lte.conf P_PROMOTION"),
                    "inactivity_s": sourced(0.1, "AT&T ARO lte.conf INACTIVITY_TIMER"),
                    "connected_w": sourced(1.2, "AT&T ARO lte.conf LTE_BETA"),
                    "short_drx_s": sourced(0.02, "AT&T ARO lte.conf T_SHORT_DRX"),
                    "short_drx_cycle_s": sourced(0.02, "AT&T ARO LTE profile"),
                    "long_drx_s": sourced(10, "AT&T ARO lte.conf T_LONG_DRX"),
                    "long_drx_cycle_s": sourced(0.04, "AT&T ARO LTE profile"),
                    "drx_on_s": sourced(0.002, "AT&T ARO lte.conf T_DRX_PING"),
                    "drx_on_w": sourced(1.68, "AT&T ARO lte.conf P_LONG_DRX_PING"),
                    "drx_base_w": sourced(1.06, "AT&T ARO lte.conf P_TAIL"),
                    "idle_paging_s": sourced(0.043, "AT&T ARO lte.conf T_IDLE_PING"),
                    "idle_paging_period_s": sourced(1.28, "AT&T ARO lte.conf T_IDLE_PING_PERIOD"),
                    "idle_paging_w": sourced(0.594, "AT&T ARO lte.conf P_IDLE_PING"),
                    "alpha_up_mw_per_mbps": sourced(438.39, "AT&T ARO lte.conf LTE_ALPHA_UP"),
                    "alpha_down_mw_per_mbps": sourced(51.97, "AT&T ARO lte.conf LTE_ALPHA_DOWN"),
                ],
                "wifi": [
                    "active_w": sourced(0.403, "AT&T ARO WiFi.conf"), "tail_s": sourced(0.25, "AT&T ARO WiFi.conf"),
                    "tail_w": sourced(0.403, "AT&T ARO WiFi.conf"), "standby_w": sourced(0.02, "AT&T ARO WiFi.conf"),
                ],
            ],
            "disk": [
                "per_op_j": sourced(diskPerOpJ, "test fixture"), "per_mb_j": sourced(diskPerMbJ, "test fixture"),
                "per_fsync_j": sourced(diskPerFsyncJ, "test fixture"),
            ],
            "display": ["per_frame_j": sourced(0.002, "test fixture"), "gpu_w": sourced(0.5, "test fixture")],
            "location": [
                "best_w": sourced(0.28, "AT&T ARO GPS active"), "ten_meters_w": sourced(0.2, "test fixture"),
                "hundred_meters_w": sourced(0.1, "test fixture"), "kilometer_w": sourced(0.02, "AT&T ARO GPS standby"),
            ],
            "sensors": [
                "accelerometer_w": sourced(0.02, "test fixture"), "gyroscope_w": sourced(0.05, "test fixture"),
                "magnetometer_w": sourced(0.03, "test fixture"), "other_w": sourced(0.05, "test fixture"),
            ],
            "memory": ["limit_bytes": sourced(memoryLimit, "test fixture")],
            "battery": ["capacity_wh": sourced(12.0, "test fixture")],
            "score": ["score90_mw": sourced(100, "test fixture"), "score50_mw": sourced(400, "test fixture")],
        ]
        if let thresholds {
            model["thresholds"] = thresholds.mapValues { $0.mapValues { sourced($0, "test model") } }
        }
        do {
            let data = try JSONSerialization.data(withJSONObject: withPropertyNameAliases(model))
            return try JSONDecoder().decode(DeviceModel.self, from: data)
        } catch {
            fatalError("the test model does not decode: \(error)")
        }
    }

    /// Adds each snake_case key's Swift property spelling beside it (`limit_bytes` →
    /// `limitBytes`), so the literal decodes whether `DeviceModel` maps its properties to the
    /// file's snake_case keys or uses the property names; decoders ignore the other spelling.
    /// Rule ids and parameter names under `thresholds` are data, not property names, and
    /// stay as they are.
    private static func withPropertyNameAliases(_ object: [String: Any]) -> [String: Any] {
        var result: [String: Any] = [:]
        for (key, value) in object {
            let aliased = key == "thresholds" ? value : (value as? [String: Any]).map(withPropertyNameAliases) ?? value
            result[key] = aliased
            let parts = key.split(separator: "_")
            let camel = parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
            if camel != key { result[camel] = aliased }
        }
        return result
    }
}
