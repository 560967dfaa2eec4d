import DrainReport
import DrainRender
import DrainTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ReportWriterTests {
    func contents(of directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    @Test func writesAndReplacesAFileLeavingNothingElse() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("report.html").path
        try ReportWriter.write("first ✓\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first ✓\n")
        try ReportWriter.write("second\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second\n")
        #expect(try contents(of: directory) == ["report.html"])
    }

    @Test func writesToDevNull() throws {
        try ReportWriter.write("discarded", to: "/dev/null")
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func failsCleanlyWhenTheParentIsMissing() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("missing/report.json").path
        #expect(throws: ReportWriteError(path: path, operation: .createFile, code: ENOENT)) {
            try ReportWriter.write("{}", to: path)
        }
        #expect(try contents(of: directory).isEmpty)
        let error = ReportWriteError(path: path, operation: .createFile, code: ENOENT)
        #expect(error.description == "cannot write \(path): No such file or directory (while creating a temporary file beside it)")
    }

    @Test func removesItsTemporaryFileWhenTheRenameFails() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("report.md")
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        try "keep".write(to: target.appendingPathComponent("inside.txt"), atomically: false, encoding: .utf8)
        #expect(throws: ReportWriteError(path: target.path, operation: .rename, code: EISDIR)) {
            try ReportWriter.write("# report", to: target.path)
        }
        #expect(try contents(of: directory) == ["report.md"])
        #expect(try contents(of: target) == ["inside.txt"])
    }

    @Test func writesCSVTablesIntoANewNestedDirectory() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csvDirectory = directory.appendingPathComponent("out/csv")
        let tables = CSVReportRenderer.tables(ReportFixture.realistic).map { RenderedTable(name: $0.name, text: $0.csv) }
        try ReportWriter.writeTables(tables, directory: csvDirectory.path)
        #expect(try contents(of: csvDirectory) == tables.map { $0.name + ".csv" }.sorted())
        for table in tables {
            let data = try Data(contentsOf: csvDirectory.appendingPathComponent(table.name + ".csv"))
            #expect(data == Data(table.text.utf8))
        }
    }

    @Test func refusesACSVDirectoryThatIsAFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("csv")
        try "not a directory".write(to: file, atomically: false, encoding: .utf8)
        #expect(throws: ReportWriteError(path: file.path, operation: .createDirectory, code: ENOTDIR)) {
            try ReportWriter.writeTables([RenderedTable(name: "summary", text: "key,value\r\n")], directory: file.path)
        }
        #expect(try contents(of: directory) == ["csv"])
    }

    @Test func refusesATableNameThatIsNotAPlainFileNameBeforeWritingAny() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let csvDirectory = directory.appendingPathComponent("csv").path
        let tables = [RenderedTable(name: "summary", text: "key,value\r\n"), RenderedTable(name: "../escape", text: "x\r\n")]
        #expect(throws: ReportWriteError(path: csvDirectory + "/../escape.csv", operation: .invalidName, code: EINVAL)) {
            try ReportWriter.writeTables(tables, directory: csvDirectory)
        }
        #expect(try contents(of: directory).isEmpty)
    }
}
