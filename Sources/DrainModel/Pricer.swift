import DrainTrace

/// Prices every event of a timeline with a device model.
///
/// CPU slices cost duration × active power; wakeups, timer fires and polls cost one wakeup
/// each; disk operations cost per operation, per byte and per fsync; frames cost per frame
/// and GPU slices duration × GPU power; sensors and location cost power × the time between
/// their start and stop (or the end of the run). `net` events drive the radio state machine
/// of their link. O(n) in events plus O(s) in ledger entries.
public struct Pricer: Sendable {
    public let model: DeviceModel

    public init(model: DeviceModel) {
        self.model = model
    }

    public func price(_ timeline: Timeline) -> PricedTimeline {
        var ledger = CostLedger()
        ledger.reserveCapacity(timeline.count)
        var eventEnergy = [Double](repeating: 0, count: timeline.count)
        var openSensors: [StringID: (row: Int, power: Double)] = [:]
        var openLocation: (row: Int, power: Double)?

        let wakeup = model.cpu.wakeupJ.value
        let active = model.cpu.activeW.value
        for row in 0..<timeline.count {
            let time = timeline.time[row]
            var joules = 0.0
            var category = EnergyCategory.cpu
            var key = timeline.label[row]
            var duration: Nanoseconds = 0
            switch timeline.kind[row] {
            case .cpu:
                duration = timeline.duration[row]
                joules = Clock.seconds(duration) * active
                if key == 0 { key = timeline.thread[row] }
            case .wakeup:
                joules = wakeup
                if timeline.label2[row] != 0 { key = timeline.label2[row] }
            case .timer, .poll:
                joules = wakeup
                category = .polling
            case .disk:
                category = .disk
                joules = diskEnergy(operation: timeline.code[row], bytes: timeline.amount[row])
            case .frame:
                category = .display
                joules = model.display.perFrameJ.value
            case .gpu:
                category = .display
                duration = timeline.duration[row]
                joules = Clock.seconds(duration) * model.display.gpuW.value
            case .sensor:
                let kind = timeline.label[row]
                if timeline.code[row] == Action.start.rawValue {
                    if openSensors[kind] == nil {
                        openSensors[kind] = (row, sensorPower(kind: timeline.strings[kind]))
                    }
                } else if let open = openSensors.removeValue(forKey: kind) {
                    spend(open, until: time, category: .sensors, key: kind, ledger: &ledger, eventEnergy: &eventEnergy, timeline)
                }
            case .location:
                if timeline.code[row] == Action.start.rawValue {
                    let power = locationPower(accuracyMeters: timeline.value[row])
                    if let open = openLocation {
                        spend(open, until: time, category: .location, key: 0, ledger: &ledger, eventEnergy: &eventEnergy, timeline)
                    }
                    openLocation = (row, power)
                } else if let open = openLocation {
                    spend(open, until: time, category: .location, key: 0, ledger: &ledger, eventEnergy: &eventEnergy, timeline)
                    openLocation = nil
                }
            case .lifecycle, .net, .memory, .memoryWarning, .resource, .backgroundTask, .idleTimer, .mark, .unknown:
                continue
            }
            if joules > 0 {
                ledger.add(time: time, duration: duration, category: category, joules: joules, key: key, event: row)
                eventEnergy[row] += joules
            }
        }
        for (kind, open) in openSensors.sorted(by: { $0.value.row < $1.value.row }) {
            spend(open, until: timeline.end, category: .sensors, key: kind, ledger: &ledger, eventEnergy: &eventEnergy, timeline)
        }
        if let open = openLocation {
            spend(open, until: timeline.end, category: .location, key: 0, ledger: &ledger, eventEnergy: &eventEnergy, timeline)
        }
        let radio = RadioActivity()
        ledger.sortByTime()
        return PricedTimeline(timeline: timeline, ledger: ledger, eventEnergy: eventEnergy, radio: radio)
    }

    /// Energy of one disk operation (`DiskOperation` raw value), joules.
    public func diskEnergy(operation: UInt8, bytes: Int64) -> Double {
        switch DiskOperation(rawValue: operation) {
        case .fsync: model.disk.perFsyncJ.value
        case .write, .read: model.disk.perOpJ.value + Double(max(0, bytes)) / 1e6 * model.disk.perMbJ.value
        case .truncate: model.disk.perOpJ.value
        case nil: 0
        }
    }

    /// Power of a sensor kind while it runs, watts.
    public func sensorPower(kind: String) -> Double {
        switch kind {
        case "accelerometer": model.sensors.accelerometerW.value
        case "gyroscope", "gyro": model.sensors.gyroscopeW.value
        case "magnetometer": model.sensors.magnetometerW.value
        default: model.sensors.otherW.value
        }
    }

    /// Power of location updates at a requested accuracy (metres; 0 or less means best), watts.
    public func locationPower(accuracyMeters: Double) -> Double {
        switch accuracyMeters {
        case ...5: model.location.bestW.value
        case ...10: model.location.tenMetersW.value
        case ...100: model.location.hundredMetersW.value
        default: model.location.kilometerW.value
        }
    }

    private func spend(
        _ open: (row: Int, power: Double), until end: Nanoseconds, category: EnergyCategory, key: StringID,
        ledger: inout CostLedger, eventEnergy: inout [Double], _ timeline: Timeline
    ) {
        let start = timeline.time[open.row]
        let duration = max(0, end - start)
        let joules = Clock.seconds(duration) * open.power
        guard joules > 0 else { return }
        ledger.add(time: start, duration: duration, category: category, joules: joules, key: key, event: open.row)
        eventEnergy[open.row] += joules
    }
}
