enum AggregateBenchmark {
    static func run(_ arguments: [String]) {
        print("aggregate benchmark: not built yet")
    }
}
