/// A place in a configuration file: the file's path, a line and a column.
///
/// Lines and columns count from 1, the way compilers and editors count them, so
/// `hooray.toml:12:7` can be pasted into an editor's "go to" prompt. A location with line 0
/// stands for the file as a whole, such as a file that could not be read.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path of the file, as it was given to the loader.
    public var file: String
    /// The line, counting from 1; 0 for the file as a whole.
    public var line: Int
    /// The column, counting characters from 1; 0 for the whole line or file.
    public var column: Int

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - file: The path of the file.
    ///   - line: The line, counting from 1; 0 for the file as a whole.
    ///   - column: The column, counting from 1; 0 for the whole line or file.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The location of a file as a whole, for problems that are not on any one line.
    ///
    /// - Parameter file: The path of the file.
    public static func wholeFile(_ file: String) -> SourceLocation {
        SourceLocation(file: file, line: 0, column: 0)
    }

    /// The location as `file:line:column`, or `file:line` or `file` when the finer parts are unknown.
    public var description: String {
        guard line > 0 else { return file }
        guard column > 0 else { return "\(file):\(line)" }
        return "\(file):\(line):\(column)"
    }

    /// Orders locations by file path, then line, then column.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
