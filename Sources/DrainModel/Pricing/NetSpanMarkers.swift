import DrainTrace

/// Keeps the radio active over `net` events that span time (a capture's coalesced packets:
/// `duration > 0`), by feeding the radios zero-byte packets from the event's start to its end,
/// no further apart than `step`, in time order with the other events.
///
/// A span stands for packets that came closer together than every radio timer, so the radio
/// stayed active throughout; markers closer than the shortest timer keep each state machine
/// active exactly as those packets did (the transfer energy of the span's bytes is charged
/// with its first packet). O(log spans) per marker, and at most `duration / step + 1` markers
/// per span.
struct NetSpanMarkers {
    private struct Marker {
        var time: Nanoseconds
        var end: Nanoseconds
        var row: Int
        var direction: NetDirection
        var link: LinkKind
    }

    /// The longest gap between two markers: half the shortest radio timer of the model.
    let step: Nanoseconds
    /// A binary min-heap by (time, row).
    private var heap: [Marker] = []

    init(radio: DeviceModel.Radio) {
        step = Self.step(radio: radio)
    }

    /// Half the shortest radio timer of `radio`: markers no further apart keep every radio
    /// state machine active.
    static func step(radio: DeviceModel.Radio) -> Nanoseconds {
        var shortest = radio.wifi.tailS.value
        if let lte = radio.lte { shortest = min(shortest, lte.inactivityS.value) }
        if let umts = radio.umts { shortest = min(shortest, umts.dchTailS.value) }
        return max(1, Clock.nanoseconds(shortest) / 2)
    }

    var isEmpty: Bool { heap.isEmpty }

    /// Schedules the markers of a `net` event at row `row` that started at `start` (already
    /// fed as a packet) and lasts `duration`.
    mutating func add(row: Int, start: Nanoseconds, duration: Nanoseconds, direction: NetDirection, link: LinkKind) {
        guard duration > 0 else { return }
        push(Marker(time: min(start + step, start + duration), end: start + duration, row: row, direction: direction, link: link))
    }

    /// Feeds every marker at or before `time` to the radios, earliest first.
    mutating func feed<Sink: RadioEnergySink>(until time: Nanoseconds, radios: inout DeviceRadios, into sink: inout Sink) {
        while let marker = next(until: time) {
            radios.packet(marker.packet, link: marker.link, into: &sink)
        }
    }

    /// The earliest marker at or before `time`, as the zero-byte packet to feed to the radio of
    /// `link`; the span's next marker is scheduled. `nil` when no marker is due.
    mutating func next(until time: Nanoseconds) -> (packet: RadioPacket, link: LinkKind)? {
        guard let first = heap.first, first.time <= time else { return nil }
        var marker = pop()
        let packet = RadioPacket(row: marker.row, time: marker.time, bytes: 0, direction: marker.direction)
        if marker.time < marker.end {
            marker.time = min(marker.time + step, marker.end)
            push(marker)
        }
        return (packet, marker.link)
    }

    private static func before(_ lhs: Marker, _ rhs: Marker) -> Bool {
        lhs.time != rhs.time ? lhs.time < rhs.time : lhs.row < rhs.row
    }

    private mutating func push(_ marker: Marker) {
        heap.append(marker)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func pop() -> Marker {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var smallest = parent
                if left < heap.count, Self.before(heap[left], heap[smallest]) { smallest = left }
                if right < heap.count, Self.before(heap[right], heap[smallest]) { smallest = right }
                guard smallest != parent else { break }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        return top
    }
}
