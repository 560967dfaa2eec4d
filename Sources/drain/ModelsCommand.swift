import ArgumentParser
import DrainModel
import DrainPipeline

struct ModelsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "models",
        abstract: "List the built-in device cost models or show one with every number's source.",
        subcommands: [List.self, Show.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the built-in device models.")

        func run() throws {
            do {
                Console.standardOutput(try ModelCatalog.listText())
            } catch {
                Console.error(error.description)
                throw ExitCode(AnalysisError.model(error).exitCode)
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a model's parameters, units and sources.")

        @Argument(help: ArgumentHelp("A built-in model name or a model YAML file.", valueName: "NAME|FILE"))
        var model: String

        func run() throws {
            do {
                Console.standardOutput(ModelCatalog.showText(try ModelCatalog.load(nameOrPath: model)))
            } catch {
                Console.error(error.description)
                throw ExitCode(AnalysisError.model(error).exitCode)
            }
        }
    }
}
