import DrainTrace

/// A number from a model file with the source it was taken from.
///
/// In YAML: `promotion_s: { value: 0.26, source: "AT&T ARO lte.conf T_PROMOTION" }`.
public struct Sourced: Codable, Sendable, Equatable {
    public var value: Double
    public var source: String

    public init(_ value: Double, source: String) {
        self.value = value
        self.source = source
    }
}

/// A device cost model: what each kind of work costs on one device and network, loaded
/// from `models/*.yaml`. Every number carries its source.
public struct DeviceModel: Codable, Sendable, Equatable {
    /// The short name used with `--model` (`iphone-lte`).
    public var name: String
    /// A one-line description for people.
    public var title: String
    public var cpu: CPU
    public var radio: Radio
    public var disk: Disk
    public var display: Display
    public var location: Location
    public var sensors: Sensors
    public var memory: Memory
    public var battery: Battery
    public var score: Score
    /// Rule threshold overrides: rule id → parameter name → value.
    public var thresholds: [String: [String: Sourced]]?

    public struct CPU: Codable, Sendable, Equatable {
        /// Power of one busy core, watts.
        public var activeW: Sourced
        /// Energy of one wakeup from idle (exit, run the handler, re-enter idle), joules.
        public var wakeupJ: Sourced
    }

    /// The state machine that prices cellular traffic: LTE, 3G UMTS, or 5G NR non-standalone
    /// (an NR leg on an LTE anchor).
    public enum CellularTechnology: String, Codable, Sendable, CaseIterable {
        case lte, umts
        case nrNsa = "nr_nsa"

        /// The name people know it by, for messages: `LTE`, `3G UMTS`, `5G NSA`.
        public var displayName: String {
            switch self {
            case .lte: "LTE"
            case .umts: "3G UMTS"
            case .nrNsa: "5G NSA"
            }
        }
    }
    public enum DefaultLink: String, Codable, Sendable, CaseIterable { case cellular, wifi }

    public struct Radio: Codable, Sendable, Equatable {
        /// The radio used for `net` events whose interface is not stated.
        public var defaultLink: DefaultLink
        /// Which state machine prices cellular traffic.
        public var cellular: CellularTechnology
        /// Packets closer than this belong to one burst, seconds.
        public var burstGapS: Sourced
        /// The LTE parameters; also the anchor of `nr_nsa`.
        public var lte: LTE?
        public var umts: UMTS?
        /// The NR leg of `nr_nsa`.
        public var nr: NR?
        public var wifi: WiFi
    }

    /// LTE RRC: promotion, continuous reception with an inactivity timer, short and long DRX
    /// tails, idle paging.
    public struct LTE: Codable, Sendable, Equatable {
        public var promotionS: Sourced
        public var promotionW: Sourced
        /// Continuous reception stays on this long after the last packet (inactivity timer).
        public var inactivityS: Sourced
        /// Power in continuous reception (β), watts.
        public var connectedW: Sourced
        public var shortDrxS: Sourced
        public var shortDrxCycleS: Sourced
        public var longDrxS: Sourced
        public var longDrxCycleS: Sourced
        /// The on-duration of each DRX cycle and its power.
        public var drxOnS: Sourced
        public var drxOnW: Sourced
        /// Power between on-durations during the DRX tail.
        public var drxBaseW: Sourced
        public var idlePagingS: Sourced
        public var idlePagingPeriodS: Sourced
        public var idlePagingW: Sourced
        /// Throughput-dependent power, milliwatts per Mbps (so mJ per Mbit).
        public var alphaUpMwPerMbps: Sourced
        public var alphaDownMwPerMbps: Sourced
    }

    /// The 5G NR leg of a non-standalone (EN-DC) connection. The LTE anchor (`Radio.lte`)
    /// keeps the RRC state: its promotion, its inactivity timer and its DRX tail. NR is added
    /// after the LTE promotion, carries the data, and is released after its own tail while
    /// the LTE tail runs on.
    public struct NR: Codable, Sendable, Equatable {
        /// Adding the NR leg (secondary cell group) after the LTE promotion.
        public var promotionS: Sourced
        public var promotionW: Sourced
        /// Power while NR carries data, in place of the LTE β.
        public var connectedW: Sourced
        /// The NR leg stays up this long after the LTE inactivity timer ends.
        public var tailS: Sourced
        public var tailW: Sourced
        /// Throughput-dependent power on NR, milliwatts per Mbps.
        public var alphaUpMwPerMbps: Sourced
        public var alphaDownMwPerMbps: Sourced
    }

    /// 3G UMTS RRC: DCH and FACH with their inactivity timers and promotions.
    public struct UMTS: Codable, Sendable, Equatable {
        public var idleToDchS: Sourced
        public var idleToDchW: Sourced
        public var fachToDchS: Sourced
        public var fachToDchW: Sourced
        public var dchW: Sourced
        public var fachW: Sourced
        /// DCH → FACH after this long without traffic.
        public var dchTailS: Sourced
        /// FACH → IDLE after this long without traffic.
        public var fachTailS: Sourced
        /// Packets up to these sizes can be sent in FACH without promotion to DCH.
        public var fachUpBytes: Sourced
        public var fachDownBytes: Sourced
    }

    public struct WiFi: Codable, Sendable, Equatable {
        public var activeW: Sourced
        /// The radio stays awake this long after the last packet before power save.
        public var tailS: Sourced
        public var tailW: Sourced
        /// Power-save baseline; spent with or without the app, so not attributed to it.
        public var standbyW: Sourced
        public var alphaUpMwPerMbps: Sourced?
        public var alphaDownMwPerMbps: Sourced?
        /// Power-save listening; without it, power save costs `standby_w` flat.
        public var psm: PowerSave?
    }

    /// 802.11 power save: after `tail_s` the radio dozes at `standby_w` and wakes for every
    /// DTIM beacon (`beacon_interval_s` × `dtim_period`) for `listen_s` at `listen_w`.
    public struct PowerSave: Codable, Sendable, Equatable {
        public var beaconIntervalS: Sourced
        /// Beacons per DTIM beacon; a whole number of at least 1.
        public var dtimPeriod: Sourced
        public var listenS: Sourced
        public var listenW: Sourced
    }

    public struct Disk: Codable, Sendable, Equatable {
        public var perOpJ: Sourced
        public var perMbJ: Sourced
        public var perFsyncJ: Sourced
    }

    public struct Display: Codable, Sendable, Equatable {
        /// Energy to render and present one frame, joules.
        public var perFrameJ: Sourced
        public var gpuW: Sourced
    }

    /// Location power by requested accuracy: the best tier whose accuracy is at least as fine.
    public struct Location: Codable, Sendable, Equatable {
        /// Best / navigation accuracy (≤ 5 m).
        public var bestW: Sourced
        /// ≤ 10 m.
        public var tenMetersW: Sourced
        /// ≤ 100 m.
        public var hundredMetersW: Sourced
        /// Coarser than 100 m.
        public var kilometerW: Sourced
    }

    public struct Sensors: Codable, Sendable, Equatable {
        public var accelerometerW: Sourced
        public var gyroscopeW: Sourced
        public var magnetometerW: Sourced
        /// Any other sensor kind (and `motion`, which fuses the three).
        public var otherW: Sourced
    }

    public struct Memory: Codable, Sendable, Equatable {
        /// Footprint above which the system terminates the app, bytes.
        public var limitBytes: Sourced
    }

    public struct Battery: Codable, Sendable, Equatable {
        public var capacityWh: Sourced
    }

    /// Control points of the energy score's log-normal curve on average power.
    public struct Score: Codable, Sendable, Equatable {
        /// Average power that scores 90, milliwatts.
        public var score90Mw: Sourced
        /// Average power that scores 50 (the curve's median), milliwatts.
        public var score50Mw: Sourced
    }
}
