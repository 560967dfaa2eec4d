// drain-bench: the measurements behind docs/performance.md, run by scripts/bench on a
// release build. Not a test: it prints rates, it asserts nothing.

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = """
    usage: drain-bench ingest FILE [--repeat N]
           drain-bench aggregate [--events N] [--repeat N]
           drain-bench probe [--events N] [--repeat N]
           drain-bench render REPORT.json [--repeat N]
    """

switch arguments.first {
case "ingest":
    IngestBenchmark.run(Array(arguments.dropFirst()))
case "aggregate":
    AggregateBenchmark.run(Array(arguments.dropFirst()))
case "probe":
    ProbeBenchmark.run(Array(arguments.dropFirst()))
case "render":
    RenderBenchmark.run(Array(arguments.dropFirst()))
default:
    print(usage)
    exit(64)
}
