import Foundation
import Testing

/// The house rule of issue 31: no Swift file in Sources or Plugins over 600 lines, so that each part
/// of the engine stays one a new maintainer can read; a file that grows past it is split by concern.
@Suite struct SourceFileLengthTests {
    static let longest = 600

    @Test func noSwiftFileInSourcesOrPluginsIsLongerThanSixHundredLines() throws {
        var counted = 0
        var tooLong: [String] = []
        for folder in ["Sources", "Plugins"] {
            let root = Documentation.root + "/" + folder
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
                let lines =
                    text.split(separator: "\n", omittingEmptySubsequences: false).count
                    - (text.hasSuffix("\n") ? 1 : 0)
                counted += 1
                if lines > Self.longest { tooLong.append("\(folder)/\(file): \(lines) lines") }
            }
        }
        #expect(counted > 100, "found only \(counted) Swift files under Sources and Plugins")
        #expect(tooLong.isEmpty, "split these by concern: \(tooLong.sorted().joined(separator: ", "))")
    }
}
