import ArgumentParser

struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Read the run history that 'drain analyze --store' and 'drain gate --store' record.",
        discussion: """
            The store is --store URL (sqlite:PATH or postgres://USER@HOST:PORT/DB), else \
            $DRAIN_STORE, else .drain/history.sqlite at the git work tree's root. Reading needs \
            no write permission: a read-only database user is enough for list, show, export and \
            trend. docs/history.md describes the schema, retention and team set-ups.

            Exit codes: 0 success, 64 bad usage, 65 a store this drain cannot read (a newer \
            schema), 66 no such store or run, 69 the store could not be reached, 73 an output \
            file could not be written.
            """,
        subcommands: [HistoryListCommand.self, HistoryShowCommand.self, HistoryExportCommand.self, HistoryTrendCommand.self, HistoryPruneCommand.self]
    )
}
