import DrainModel
import DrainTrace

extension RuleContext {
    /// Why a rule that reads a capture's flows does not apply to a run without one.
    static let noCaptureReason = "the run has no packet capture: this rule reads the TCP/UDP flows that only a capture provides"

    /// Why a rule that reads `net` events does not apply to a run without them.
    static let noTrafficReason = "the run records no network traffic (no net events)"

    /// Whether the run has any `net` event. O(n) at worst.
    var hasNetEvents: Bool { timeline.kind.contains(.net) }

    /// Joules the radios charged to the run's `net` events: all of the run's radio energy. O(n).
    var radioEnergy: Double {
        var total = 0.0
        for row in 0..<timeline.count where timeline.kind[row] == .net { total += priced.eventEnergy[row] }
        return total
    }

    /// The radio (`.wifi`, `.cellular`) that carries traffic of `link` under the model, or `nil`
    /// for links without one (ethernet, loopback).
    func radioLink(for link: LinkKind) -> LinkKind? {
        RadioLinks(radio: model.radio).radio(for: link)
    }

    /// What the energy of waking a radio is made of, for messages: a cellular radio's
    /// promotions and the tails after the bursts; Wi-Fi has no promotion, only its time awake.
    func wakeUpCost(on radioLink: LinkKind, promotions: Int, tails: Int) -> String {
        guard radioLink != .wifi else { return "time awake" }
        return "\(promotions == 1 ? "promotion" : "promotions") and \(tails == 1 ? "tail" : "tails")"
    }

    /// A name for a radio link in messages: `Wi-Fi`, or the model's cellular technology.
    func radioName(_ radioLink: LinkKind) -> String {
        switch radioLink {
        case .wifi: "Wi-Fi"
        case .cellular: "cellular (\(model.radio.cellular.displayName))"
        default: radioLink.traceName
        }
    }
}

/// A percentage for messages, one decimal.
func percent(_ share: Double) -> String { "\(fixed(share * 100, 1)) %" }

/// How many times, for messages: "once", "3 times".
func times(_ count: Int) -> String { count == 1 ? "once" : "\(count) times" }

/// Whether joules show as more than zero in a message's three decimals.
func isMeasurable(_ joules: Double) -> Bool { joules >= 0.0005 }
