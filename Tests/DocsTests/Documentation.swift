import Foundation

/// The repository's Markdown files, and the checks `make test` runs on them.
enum Documentation {
    /// The repository's root: two folders above this file's (`Tests/DocsTests/`).
    static let root: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Every `*.md` file under `root`, relative to it, in name order: the README, `docs/`, the DocC
    /// articles and every other one, except in hidden folders (`.build`, `.git`) and `dist`.
    static func markdownFiles(under root: String = root) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if name.hasPrefix(".") || path == "dist" {
                if (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory {
                    enumerator.skipDescendants()
                }
                continue
            }
            if path.hasSuffix(".md") { files.append(path) }
        }
        return files.sorted()
    }

    /// Reads a Markdown file of the repository.
    static func document(_ path: String, under root: String = root) throws -> MarkdownDocument {
        MarkdownDocument(
            path: path,
            text: try String(contentsOfFile: (root as NSString).appendingPathComponent(path), encoding: .utf8))
    }

    /// Every link of these files that leads nowhere, as `file:line: message`.
    static func brokenLinks(in paths: [String], under root: String = root) throws -> [String] {
        var anchorsByFile: [String: Set<String>] = [:]
        func anchors(of path: String) throws -> Set<String> {
            if let known = anchorsByFile[path] { return known }
            let found = try document(path, under: root).anchors
            anchorsByFile[path] = found
            return found
        }
        var problems: [String] = []
        for path in paths {
            let document = try document(path, under: root)
            for link in document.links {
                if let problem = try problem(with: link.target, in: path, anchors: anchors, under: root) {
                    problems.append("\(path):\(link.line): \(problem)")
                }
            }
        }
        return problems
    }

    /// What is wrong with one link target, or `nil` when it leads somewhere.
    private static func problem(
        with target: String, in file: String, anchors: (String) throws -> Set<String>, under root: String
    ) throws -> String? {
        if let scheme = target.firstMatch(of: /^([a-zA-Z][a-zA-Z0-9+.-]*):/)?.1 {
            switch scheme.lowercased() {
            case "http", "https":
                guard let url = URL(string: target), let host = url.host, !host.isEmpty, host.contains(".") else {
                    return "\(target) is not a well-formed web address"
                }
                return nil
            case "mailto":
                return target.contains("@") ? nil : "\(target) is not a well-formed e-mail address"
            default:
                return "\(target): a link to \(scheme): cannot be checked; link to a file or a web page"
            }
        }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let pathPart = parts[0].removingPercentEncoding ?? String(parts[0])
        let anchor = parts.count > 1 ? (parts[1].removingPercentEncoding ?? String(parts[1])) : nil
        let linked: String
        if pathPart.isEmpty {
            linked = file
        } else {
            let base = pathPart.hasPrefix("/") ? "" : (file as NSString).deletingLastPathComponent
            linked = normalized((base as NSString).appendingPathComponent(pathPart))
            let full = (root as NSString).appendingPathComponent(linked)
            guard !linked.hasPrefix("../"), linked != "..", FileManager.default.fileExists(atPath: full) else {
                return "\(target) leads to \(linked), which does not exist"
            }
        }
        guard let anchor, linked.hasSuffix(".md") else { return nil }
        if anchor.isEmpty { return "\(target) has an empty #anchor" }
        guard try anchors(linked).contains(anchor) else {
            let near = try anchors(linked).sorted().filter { $0.hasPrefix(String(anchor.prefix(4))) }
            let hint = near.isEmpty ? "" : "; headings there include #\(near.prefix(3).joined(separator: ", #"))"
            return "\(target): \(linked) has no heading with the anchor #\(anchor)\(hint)"
        }
        return nil
    }

    /// A relative path with its `.` and `..` components resolved; a `..` that climbs above the root stays.
    static func normalized(_ path: String) -> String {
        var components: [String] = []
        for component in path.split(separator: "/").map(String.init) {
            switch component {
            case ".": continue
            case "..":
                if let last = components.last, last != ".." { components.removeLast() } else { components.append("..") }
            default: components.append(component)
            }
        }
        return components.joined(separator: "/")
    }
}
