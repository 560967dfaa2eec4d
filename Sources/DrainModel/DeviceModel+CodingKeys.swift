// The keys of a model file: the snake_case of each Swift property. They are `CaseIterable`
// so that `StrictYAMLDecoder` (DrainYAML) can reject a key that is not one of them and list the ones
// that are expected.

extension Sourced {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case value, source
    }
}

extension DeviceModel {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, title, cpu, radio, disk, display, location, sensors, memory, battery, score, thresholds
    }
}

extension DeviceModel.CPU {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case activeW = "active_w"
        case wakeupJ = "wakeup_j"
    }
}

extension DeviceModel.Radio {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case defaultLink = "default_link"
        case cellular
        case burstGapS = "burst_gap_s"
        case lte, umts, nr, wifi
    }
}

extension DeviceModel.NR {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case promotionS = "promotion_s"
        case promotionW = "promotion_w"
        case connectedW = "connected_w"
        case tailS = "tail_s"
        case tailW = "tail_w"
        case alphaUpMwPerMbps = "alpha_up_mw_per_mbps"
        case alphaDownMwPerMbps = "alpha_down_mw_per_mbps"
    }
}

extension DeviceModel.LTE {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case promotionS = "promotion_s"
        case promotionW = "promotion_w"
        case inactivityS = "inactivity_s"
        case connectedW = "connected_w"
        case shortDrxS = "short_drx_s"
        case shortDrxCycleS = "short_drx_cycle_s"
        case longDrxS = "long_drx_s"
        case longDrxCycleS = "long_drx_cycle_s"
        case drxOnS = "drx_on_s"
        case drxOnW = "drx_on_w"
        case drxBaseW = "drx_base_w"
        case idlePagingS = "idle_paging_s"
        case idlePagingPeriodS = "idle_paging_period_s"
        case idlePagingW = "idle_paging_w"
        case alphaUpMwPerMbps = "alpha_up_mw_per_mbps"
        case alphaDownMwPerMbps = "alpha_down_mw_per_mbps"
    }
}

extension DeviceModel.UMTS {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case idleToDchS = "idle_to_dch_s"
        case idleToDchW = "idle_to_dch_w"
        case fachToDchS = "fach_to_dch_s"
        case fachToDchW = "fach_to_dch_w"
        case dchW = "dch_w"
        case fachW = "fach_w"
        case dchTailS = "dch_tail_s"
        case fachTailS = "fach_tail_s"
        case fachUpBytes = "fach_up_bytes"
        case fachDownBytes = "fach_down_bytes"
    }
}

extension DeviceModel.WiFi {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case activeW = "active_w"
        case tailS = "tail_s"
        case tailW = "tail_w"
        case standbyW = "standby_w"
        case alphaUpMwPerMbps = "alpha_up_mw_per_mbps"
        case alphaDownMwPerMbps = "alpha_down_mw_per_mbps"
        case psm
    }
}

extension DeviceModel.PowerSave {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case beaconIntervalS = "beacon_interval_s"
        case dtimPeriod = "dtim_period"
        case listenS = "listen_s"
        case listenW = "listen_w"
    }
}

extension DeviceModel.Disk {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case perOpJ = "per_op_j"
        case perMbJ = "per_mb_j"
        case perFsyncJ = "per_fsync_j"
    }
}

extension DeviceModel.Display {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case perFrameJ = "per_frame_j"
        case gpuW = "gpu_w"
    }
}

extension DeviceModel.Location {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case bestW = "best_w"
        case tenMetersW = "ten_meters_w"
        case hundredMetersW = "hundred_meters_w"
        case kilometerW = "kilometer_w"
    }
}

extension DeviceModel.Sensors {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case accelerometerW = "accelerometer_w"
        case gyroscopeW = "gyroscope_w"
        case magnetometerW = "magnetometer_w"
        case otherW = "other_w"
    }
}

extension DeviceModel.Memory {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case limitBytes = "limit_bytes"
    }
}

extension DeviceModel.Battery {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case capacityWh = "capacity_wh"
    }
}

extension DeviceModel.Score {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case score90Mw = "score90_mw"
        case score50Mw = "score50_mw"
    }
}
