import DrainTrace

extension DeviceModel {
    /// Checks that the model can be priced with: every number finite, non-negative and sourced,
    /// the radio parameters of the chosen cellular technology present, and the relations between
    /// numbers that the formulas rely on (DRX on-durations shorter than their cycles, positive
    /// cycle lengths, a Wi-Fi listen window within its DTIM interval, a positive memory limit
    /// and battery, score control points in order).
    ///
    /// `ModelCatalog` runs this on every model file it loads (a built-in model is validated by
    /// the tests, not again on each run); call it on a model built in code.
    /// `file` names the model in the error. O(fields).
    public func validate(file: String = "model") throws(ModelError) {
        if let issue = fieldIssue() ?? consistencyIssue() {
            throw issue.error(file: file, root: nil)
        }
    }

    /// The first number that is not finite, is negative or has no source. The decoder already
    /// refuses these in files; this covers models built in code.
    private func fieldIssue() -> ModelFileIssue? {
        let thresholdFields = (thresholds ?? [:]).sorted { $0.key < $1.key }.flatMap { rule, parameters in
            parameters.sorted { $0.key < $1.key }.map { ModelField(path: ["thresholds", rule, $0.key], value: .number($0.value)) }
        }
        for field in fields + thresholdFields {
            guard case .number(let number) = field.value else { continue }
            if !number.value.isFinite {
                return ModelFileIssue(.invalidValue, at: field.path + ["value"], "the number must be finite")
            }
            if number.value < 0 {
                return ModelFileIssue(.negativeValue, at: field.path + ["value"], "must not be negative, found \(number.value)")
            }
            if !number.source.contains(where: { !$0.isWhitespace }) {
                return ModelFileIssue(.missingSource, at: field.path + ["source"], "empty source: every number says where it comes from")
            }
        }
        return nil
    }

    /// The first relation between values that does not hold.
    func consistencyIssue() -> ModelFileIssue? {
        // Times become nanoseconds added to event times: a longer one would overflow the clock.
        for field in fields where field.path.last?.hasSuffix("_s") == true {
            guard case .number(let number) = field.value, number.value > Clock.longestSpanSeconds else { continue }
            return ModelFileIssue(
                .invalidValue, at: field.path + ["value"],
                "must be at most 1e9 seconds (about 32 years), the longest span Drain's clock adds to a time, found \(number.value)")
        }
        if !name.contains(where: { !$0.isWhitespace }) {
            return ModelFileIssue(.missingValue, at: ["name"], "the model needs a name")
        }
        if radio.burstGapS.value <= 0 {
            return positive(["radio", "burst_gap_s"])
        }
        switch radio.cellular {
        case .lte:
            if radio.lte == nil {
                return ModelFileIssue(.missingValue, at: ["radio", "lte"], "missing LTE parameters, required by `cellular: lte`")
            }
        case .umts:
            if radio.umts == nil {
                return ModelFileIssue(.missingValue, at: ["radio", "umts"], "missing UMTS parameters, required by `cellular: umts`")
            }
        case .nrNsa:
            if radio.lte == nil {
                return ModelFileIssue(
                    .missingValue, at: ["radio", "lte"], "missing LTE parameters, required by `cellular: nr_nsa` for the LTE anchor")
            }
            if radio.nr == nil {
                return ModelFileIssue(.missingValue, at: ["radio", "nr"], "missing NR parameters, required by `cellular: nr_nsa`")
            }
        }
        if let lte = radio.lte, let issue = lteIssue(lte) { return issue }
        if let psm = radio.wifi.psm, let issue = powerSaveIssue(psm) { return issue }
        if memory.limitBytes.value <= 0 { return positive(["memory", "limit_bytes"]) }
        if battery.capacityWh.value <= 0 { return positive(["battery", "capacity_wh"]) }
        if score.score90Mw.value <= 0 { return positive(["score", "score90_mw"]) }
        if score.score90Mw.value >= score.score50Mw.value {
            return ModelFileIssue(
                .invalidValue, at: ["score", "score50_mw"],
                "must be above score90_mw (\(score.score90Mw.value)): higher average power scores lower")
        }
        return nil
    }

    private func lteIssue(_ lte: LTE) -> ModelFileIssue? {
        let cycles: [(String, Double)] = [
            ("short_drx_cycle_s", lte.shortDrxCycleS.value), ("long_drx_cycle_s", lte.longDrxCycleS.value),
            ("idle_paging_period_s", lte.idlePagingPeriodS.value),
        ]
        for (key, value) in cycles where value <= 0 {
            return positive(["radio", "lte", key])
        }
        for (key, cycle) in cycles.prefix(2) where lte.drxOnS.value > cycle {
            return ModelFileIssue(
                .invalidValue, at: ["radio", "lte", "drx_on_s"],
                "the on-duration (\(lte.drxOnS.value) s) must not exceed \(key) (\(cycle) s)")
        }
        if lte.idlePagingS.value > lte.idlePagingPeriodS.value {
            return ModelFileIssue(
                .invalidValue, at: ["radio", "lte", "idle_paging_s"],
                "the paging on-time (\(lte.idlePagingS.value) s) must not exceed idle_paging_period_s (\(lte.idlePagingPeriodS.value) s)")
        }
        return nil
    }

    private func powerSaveIssue(_ psm: PowerSave) -> ModelFileIssue? {
        let path = ["radio", "wifi", "psm"]
        if psm.beaconIntervalS.value <= 0 { return positive(path + ["beacon_interval_s"]) }
        let dtim = psm.dtimPeriod.value
        if dtim < 1 || dtim != dtim.rounded() {
            return ModelFileIssue(
                .invalidValue, at: path + ["dtim_period", "value"], "must be a whole number of beacons, at least 1, found \(dtim)")
        }
        let interval = psm.beaconIntervalS.value * dtim
        if psm.listenS.value > interval {
            return ModelFileIssue(
                .invalidValue, at: path + ["listen_s", "value"],
                "the listen window (\(psm.listenS.value) s) must not exceed beacon_interval_s × dtim_period (\(interval) s)")
        }
        return nil
    }

    private func positive(_ path: [String]) -> ModelFileIssue {
        ModelFileIssue(.invalidValue, at: path + ["value"], "must be greater than 0")
    }
}
