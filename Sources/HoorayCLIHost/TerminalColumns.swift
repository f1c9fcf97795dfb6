import Foundation
import HoorayEngine

/// The width of a terminal, in columns, for output laid out to fit it.
public enum TerminalColumns {
    /// The columns of the terminal on `descriptor`; 80 when it is no terminal or does not say.
    public static func of(_ descriptor: Int32) -> Int {
        var size = winsize()
        return ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }
}
