import Foundation
import Testing

/// The DocC article "Writing a Hooray plugin" walks through this plugin and quotes its code: a change
/// to the plugin that leaves the article behind fails here.
@Suite struct ArticleTests {
    /// The package's folder, three levels above this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The Swift code blocks of a Markdown text, each with a final newline.
    func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line == "```" {
                blocks.append(lines.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test func everySwiftBlockOfTheArticleIsTheRealCode() throws {
        let article = try String(
            contentsOfFile: Self.root + "/Sources/HoorayKit/Docs.docc/WritingAPlugin.md", encoding: .utf8)
        var sources: [String] = []
        for folder in ["Plugins/Water", "Plugins/BuiltIn", "Tests/WaterPluginTests"] {
            let path = Self.root + "/" + folder
            for file in try FileManager.default.contentsOfDirectory(atPath: path) where file.hasSuffix(".swift") {
                sources.append(try String(contentsOfFile: path + "/" + file, encoding: .utf8))
            }
        }
        let blocks = swiftBlocks(in: article)
        #expect(blocks.count >= 10, "the article walks through the plugin in Swift blocks")
        for block in blocks {
            #expect(
                sources.contains { $0.contains(block) },
                "this block of WritingAPlugin.md is not in Plugins/Water, its registration or its tests:\n\(block)")
        }
    }
}
