enum IngestBenchmark {
    static func run(_ arguments: [String]) {
        print("ingest benchmark: not built yet")
    }
}
