import CGtk
import Glibc

/// Asks the user for files to open, in the desktop's own file chooser (`GtkFileChooserNative`: the
/// portal's under Flatpak or with one running, GTK's dialog otherwise).
@MainActor
public final class FileChooser: GObjectReference {
    /// A kind of file the chooser can be set to show.
    public struct Filter: Sendable {
        /// Its name in the chooser, such as "Photos".
        public var name: String
        /// The MIME types it shows, such as `image/*`; empty with ``patterns``.
        public var mimeTypes: [String] = []
        /// The file name patterns it shows, such as `*`.
        public var patterns: [String] = []

        public init(name: String, mimeTypes: [String] = [], patterns: [String] = []) {
            self.name = name
            self.mimeTypes = mimeTypes
            self.patterns = patterns
        }
    }

    /// The chooser, held from ``choose(_:)`` until the user answered.
    private var keptWhileOpen: FileChooser?

    /// A chooser over `parent`, titled `title`, whose button to open says `accept` (a mnemonic
    /// label, such as "_Add"), showing the kinds of file in `filters` (the first one at first).
    public init(
        title: String, parent: Window, accept: String, filters: [Filter] = [], allowsSeveral: Bool = false
    ) {
        let native = gtk_file_chooser_native_new(
            title, UnsafeMutableRawPointer(parent.object).assumingMemoryBound(to: GtkWindow.self),
            GTK_FILE_CHOOSER_ACTION_OPEN, accept, "_Cancel")
        super.init(owning: UnsafeMutableRawPointer(native!))
        gtk_native_dialog_set_modal(nativeDialog, 1)
        gtk_file_chooser_set_select_multiple(chooser, allowsSeveral ? 1 : 0)
        for filter in filters {
            let made = gtk_file_filter_new()
            gtk_file_filter_set_name(made, filter.name)
            for type in filter.mimeTypes { gtk_file_filter_add_mime_type(made, type) }
            for pattern in filter.patterns { gtk_file_filter_add_pattern(made, pattern) }
            gtk_file_chooser_add_filter(chooser, made)
            g_object_unref(UnsafeMutableRawPointer(made))
        }
    }

    /// A chooser over `parent` for where to save a new file, titled `title`, its name field holding
    /// `suggestedName`, whose button to save says `accept` (such as "_Export"). GTK asks before a file
    /// chosen there is replaced.
    public init(savingTitle title: String, parent: Window, accept: String, suggestedName: String) {
        let native = gtk_file_chooser_native_new(
            title, UnsafeMutableRawPointer(parent.object).assumingMemoryBound(to: GtkWindow.self),
            GTK_FILE_CHOOSER_ACTION_SAVE, accept, "_Cancel")
        super.init(owning: UnsafeMutableRawPointer(native!))
        gtk_native_dialog_set_modal(nativeDialog, 1)
        gtk_file_chooser_set_current_name(chooser, suggestedName)
    }

    /// Shows the chooser; `chosen` runs once with the paths of the files the user chose, or with
    /// none when they cancelled (files with no local path, on a remote place, are left out).
    public func choose(_ chosen: @escaping @MainActor ([String]) -> Void) {
        keptWhileOpen = self
        connectWithNumber("response") { [unowned self] response in
            var paths: [String] = []
            if response == Int(GTK_RESPONSE_ACCEPT.rawValue), let files = gtk_file_chooser_get_files(chooser) {
                for index in 0..<g_list_model_get_n_items(files) {
                    guard let file = g_list_model_get_item(files, index) else { continue }
                    if let path = g_file_get_path(OpaquePointer(file)) {
                        paths.append(String(cString: path))
                        g_free(path)
                    }
                    g_object_unref(file)
                }
                g_object_unref(UnsafeMutableRawPointer(files))
            }
            gtk_native_dialog_destroy(nativeDialog)
            keptWhileOpen = nil
            chosen(paths)
        }
        gtk_native_dialog_show(nativeDialog)
    }

    private var chooser: OpaquePointer { OpaquePointer(object) }

    private var nativeDialog: UnsafeMutablePointer<GtkNativeDialog> {
        UnsafeMutableRawPointer(object).assumingMemoryBound(to: GtkNativeDialog.self)
    }
}
