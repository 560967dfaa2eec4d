import ArgumentParser

/// Which device model prices the run and which rule thresholds judge it.
struct ModelOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Device model: a built-in name (see 'drain models list') or a model YAML file. Default: the trace's device hint, else iphone-lte.",
            valueName: "NAME|FILE"))
    var model: String?

    @Option(name: .long, help: ArgumentHelp("Rule configuration YAML: enable/disable rules, override thresholds.", valueName: "FILE"))
    var config: String?
}
