import ArgumentParser

@main
struct Drain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drain",
        abstract: "Energy and memory budget profiler."
    )
}
