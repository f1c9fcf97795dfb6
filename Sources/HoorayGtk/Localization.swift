import CGtk
import Foundation

/// The app's words in the user's language, through gettext: each text of the window is looked up in
/// the translations of ``domain`` (`/usr/share/locale/LANG/LC_MESSAGES/hooray.mo`), and shown as
/// written, in English, where there is none. The catalogue's template, `po/hooray.pot`, is made from
/// the texts passed to ``localized(_:_:)`` and ``localized(one:other:count:)`` (`make pot`).
public enum Localization {
    /// The gettext domain: the name of the translations' files.
    public static let domain = "hooray"

    /// Where the translations are: `HOORAY_LOCALE_DIR` when set (a build not installed, a test),
    /// otherwise `share/locale` beside the program's `bin` folder (`/usr/share/locale` for
    /// `/usr/bin/hooray-app`).
    public static func directory(environment: [String: String], executable: String) -> String {
        if let configured = environment["HOORAY_LOCALE_DIR"], !configured.isEmpty { return configured }
        let bin = (executable as NSString).deletingLastPathComponent
        return ((bin as NSString).deletingLastPathComponent as NSString).appendingPathComponent("share/locale")
    }

    /// Takes the user's locale (`LANG`, `LC_ALL`, `LANGUAGE`) and finds the translations; before GTK
    /// starts, so that GTK's own words follow too.
    public static func start(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executable: String = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
    ) {
        setlocale(LC_ALL, "")
        bindtextdomain(domain, directory(environment: environment, executable: executable))
        bind_textdomain_codeset(domain, "UTF-8")
        textdomain(domain)
    }
}

/// `text` in the user's language; with `arguments`, its `%@` (or `%1$@`, `%2$@` where a
/// translation orders them otherwise) and `%d` filled in, as `String(format:)` fills them.
///
/// - Parameters:
///   - text: The English text, as written in the source (xgettext finds it there).
///   - arguments: What fills its placeholders.
public func localized(_ text: String, _ arguments: any CVarArg...) -> String {
    // gettext answers with the text it was given when it has no translation: a pointer into the C
    // string Swift made for the call, which lives only while `withCString` runs.
    let translated = text.withCString { msgid in
        guard let found = dgettext(Localization.domain, msgid), found != msgid else { return text }
        return String(cString: found)
    }
    return arguments.isEmpty ? translated : String(format: translated, arguments: arguments)
}

/// A text that says a number, in the user's language and its plural rule: `one` for 1 in English,
/// `other` for the rest; `%d` in them is the number.
public func localized(one: String, other: String, count: Int) -> String {
    let translated = one.withCString { singular in
        other.withCString { plural in
            guard let found = dngettext(Localization.domain, singular, plural, UInt(max(0, count))) else {
                return other
            }
            if found == singular { return one }
            if found == plural { return other }
            return String(cString: found)
        }
    }
    return String(format: translated, Int32(clamping: count))
}
