/// The guidance areas of `GUIDANCE.md`.
public enum GuidanceArea: String, Codable, Sendable, CaseIterable {
    case network, cpu, disk, memory, lifecycle, display
}
