import DrainReport
import Testing

@Suite struct FindingKeyTests {
    @Test func aFindingAboutTheWholeRunIsKeyedByItsRule() {
        #expect(FindingKey.key(rule: "CPU-WAKEUPS", subject: nil) == "CPU-WAKEUPS")
        #expect(FindingKey.key(rule: "CPU-WAKEUPS", subject: "") == "CPU-WAKEUPS")
    }

    @Test(arguments: [
        ("api.example.com", "api.example.com"),
        ("API.Example.COM", "api.example.com"),
        ("/v1/Feed?page=2&since=1732431000", "/v1/Feed"),
        ("/v1/feed#top", "/v1/feed"),
        ("api.example.com:443", "api.example.com:{port}"),
        ("10.0.0.2:51234", "10.0.0.2:{port}"),
        ("10.0.0.2:51234 → 93.184.216.34:443", "10.0.0.2:{port} → 93.184.216.34:{port}"),
        ("[2001:db8::1]:8443", "[2001:db8::1]:{port}"),
        ("fe80::1", "fe80::1"),
        ("2001:db8::5:1", "2001:db8::5:1"),
        ("Thread 12345", "Thread {n}"),
        ("worker-7", "worker-7"),
        ("sync 10:30", "sync 10:30"),
        ("/data/3F2504E0-4F89-11D3-9A0C-0305E82C3301/cache.db", "/data/{uuid}/cache.db"),
        ("cache/3f9a2b1c77d0.db", "cache/{hex}.db"),
        ("cache/deadbeefcafe.db", "cache/deadbeefcafe.db"),
        ("log-2024.txt", "log-{n}.txt"),
        ("v123/x", "v123/x"),
        // Characters outside ASCII stay whole, are never letters or digits, and end words.
        ("CAFÉ.Example.COM:8443", "cafÉ.example.com:{port}"),
        ("Ünïcode 12345", "Ünïcode {n}"),
        ("日本/3F2504E0-4F89-11D3-9A0C-0305E82C3301", "日本/{uuid}"),
        ("α→10.0.0.2:51234", "α→10.0.0.2:{port}"),
        ("é:1234", "é:{n}"),
    ])
    func normalisesWhatChangesFromRunToRun(subject: String, expected: String) {
        #expect(FindingKey.normalize(subject) == expected)
    }

    @Test func theSameProblemInTwoRunsHasTheSameKey() {
        let first = FindingKey.key(rule: "NET-UNCOMPRESSED", subject: "api.example.com:50412/v1/items?cursor=991")
        let second = FindingKey.key(rule: "NET-UNCOMPRESSED", subject: "api.example.com:61877/v1/items?cursor=1024")
        #expect(first == second)
        #expect(first == "NET-UNCOMPRESSED:api.example.com:{port}/v1/items")
        #expect(FindingKey.key(rule: "NET-PERIODIC", subject: "a.example.com") != FindingKey.key(rule: "NET-PERIODIC", subject: "b.example.com"))
    }

    @Test func aFindingCarriesTheKeyOfItsRuleAndSubject() {
        let finding = Finding(
            rule: "DISK-REWRITE", area: .disk, severity: .warning, title: "t", message: "m", evidence: [], energyJ: nil,
            timeRanges: [], fix: "f", guidance: "g", source: "s", subject: "/tmp/state-1732431000.json?v=2")
        #expect(finding.subject == "/tmp/state-1732431000.json?v=2")
        #expect(finding.key == "DISK-REWRITE:/tmp/state-{n}.json")
    }
}
