/// The exit codes of `hooray` and `hoorayd`, one table for every command (sysexits.h values).
///
/// | code | meaning |
/// |---|---|
/// | 0 | done |
/// | 1 | failed: the command ran and could not do what was asked |
/// | 64 | usage: the command line was not understood (unknown command or option, a bad value) |
/// | 69 | service unavailable: something needed is not there (hoorayd, the notification server, the keyring) |
/// | 75 | busy, try again later: hoorayd or a server did not answer in time |
/// | 78 | configuration: a configuration file has errors |
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Done.
    case ok = 0
    /// The command ran and could not do what was asked.
    case failed = 1
    /// The command line was not understood.
    case usage = 64
    /// Something needed is not there: hoorayd, the notification server, the keyring.
    case unavailable = 69
    /// hoorayd or a server did not answer in time; trying again later may work.
    case busy = 75
    /// A configuration file has errors.
    case configuration = 78

    /// What the code means, in a few words, for `hooray --help` and the man page.
    public var meaning: String {
        switch self {
        case .ok: "done"
        case .failed: "failed: the command could not do what was asked"
        case .usage: "usage: the command line was not understood"
        case .unavailable: "unavailable: hoorayd, the notification server or the keyring is not there"
        case .busy: "busy: hoorayd or a server did not answer in time; try again later"
        case .configuration: "configuration: a configuration file has errors"
        }
    }

    /// The table as printed by `hooray --help`.
    public static var table: String {
        allCases.map { status in
            let code = String(status.rawValue)
            return String(repeating: " ", count: 3 - code.count) + code + "  " + status.meaning
        }.joined(separator: "\n")
    }
}
