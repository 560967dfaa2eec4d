@testable import DrainHistory
import Testing

@Suite struct StoreLocationTests {
    @Test func parsesSQLiteURLs() throws {
        #expect(try StoreLocation(url: "sqlite:.drain/history.sqlite") == .sqlite(path: ".drain/history.sqlite"))
        #expect(try StoreLocation(url: "sqlite:///var/lib/drain.sqlite") == .sqlite(path: "/var/lib/drain.sqlite"))
        #expect(throws: StoreError.self) { try StoreLocation(url: "sqlite:") }
    }

    @Test func parsesPostgresURLsAndNeverShowsThePassword() throws {
        let location = try StoreLocation(url: "postgres://ci:s3cr%40t@db.example:6543/drain?sslmode=require", environment: [:])
        guard case let .postgres(server) = location else {
            Issue.record("not a PostgreSQL location")
            return
        }
        #expect(server.host == "db.example")
        #expect(server.port == 6543)
        #expect(server.user == "ci")
        #expect(server.password == "s3cr@t")
        #expect(server.database == "drain")
        #expect(server.tls == .require)
        #expect(location.description == "postgres://ci:***@db.example:6543/drain?sslmode=require")

        // The password from PGPASSWORD; the default port and TLS mode.
        let fromEnvironment = try StoreLocation(url: "postgresql://reader@localhost/history", environment: ["PGPASSWORD": "hunter2"])
        #expect(fromEnvironment.description == "postgres://reader:***@localhost:5432/history")
        guard case let .postgres(other) = fromEnvironment else { return }
        #expect(other.password == "hunter2")
        #expect(other.tls == .prefer)
    }

    @Test func refusesBadURLsWithoutEchoingAPassword() {
        let cases = [
            "mysql://u:topsecret@h/db", "postgres://u:topsecret@/db", "postgres://h:5432/db", "postgres://u:topsecret@h:5432/",
            "postgres://u:topsecret@h/db?sslmode=sometimes", "postgres://u:topsecret@h/db?application_name=x",
        ]
        for url in cases {
            do {
                _ = try StoreLocation(url: url, environment: [:])
                Issue.record("\(url) was accepted")
            } catch {
                #expect(error.exitCode == 64)
                #expect(!error.description.contains("topsecret"), "\(error.description)")
            }
        }
    }

    @Test func resolvesTheOptionTheEnvironmentAndTheDefault() throws {
        let environment = ["DRAIN_STORE": "sqlite:/env/history.sqlite"]
        #expect(try StoreLocation.resolve(option: "sqlite:/x.sqlite", fallbackToDefault: false, environment: environment) == .sqlite(path: "/x.sqlite"))
        #expect(try StoreLocation.resolve(option: "default", fallbackToDefault: false, environment: environment) == .sqlite(path: "/env/history.sqlite"))
        #expect(try StoreLocation.resolve(option: nil, fallbackToDefault: false, environment: environment) == .sqlite(path: "/env/history.sqlite"))
        #expect(try StoreLocation.resolve(option: nil, fallbackToDefault: false, environment: [:]) == nil)
        let fallback = try StoreLocation.resolve(option: nil, fallbackToDefault: true, environment: [:])
        guard case let .sqlite(path)? = fallback else {
            Issue.record("no default store")
            return
        }
        #expect(path.hasSuffix("/.drain/history.sqlite"))
    }

    @Test func aBareStoreOptionGetsTheDefault() {
        #expect(StoreArguments.expandingBareStore(["gate", "a.json", "--store"]) == ["gate", "a.json", "--store", "default"])
        #expect(StoreArguments.expandingBareStore(["gate", "--store", "a.json"]) == ["gate", "--store", "default", "a.json"])
        #expect(StoreArguments.expandingBareStore(["gate", "--store", "--scenario", "s"]) == ["gate", "--store", "default", "--scenario", "s"])
        #expect(StoreArguments.expandingBareStore(["list", "--store", "postgres://u@h/db"]) == ["list", "--store", "postgres://u@h/db"])
        #expect(StoreArguments.expandingBareStore(["list", "--store", "mysql://h/db"]) == ["list", "--store", "mysql://h/db"])
        #expect(StoreArguments.expandingBareStore(["compare", "--store", "store:4", "store:5"]) == ["compare", "--store", "default", "store:4", "store:5"])
        #expect(StoreArguments.expandingBareStore(["record", "--", "app", "--store"]) == ["record", "--", "app", "--store"])
        #expect(StoreArguments.expandingBareStore(["analyze", "--store=sqlite:x"]) == ["analyze", "--store=sqlite:x"])
    }

    @Test func projectNamesComeFromTheRemoteWithoutCredentials() {
        #expect(RunProvenance.normalizedRemote("https://x-access-token:ghp_abc@github.com/acme/app.git") == "github.com/acme/app")
        #expect(RunProvenance.normalizedRemote("git@github.com:acme/app.git") == "github.com/acme/app")
        #expect(RunProvenance.normalizedRemote("ssh://git@gitlab.example:2222/team/app") == "gitlab.example/team/app")
        #expect(RunProvenance.normalizedRemote("https://github.com/acme/app/") == "github.com/acme/app")
    }
}
