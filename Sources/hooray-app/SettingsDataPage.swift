import Foundation
import HoorayGtk
import HoorayText

/// Settings' "Your data" page: your anonymous id, export and import, and delete my data — each
/// what `hooray identity`, `hooray export`, `hooray import --apply` and `hooray delete-my-data` do,
/// run as a terminal would run them (``HoorayProgram``); what they say is shown as a toast.
@MainActor
final class SettingsDataPage {
    let page = PreferencesPage(title: localized("Your data"), iconName: "drive-harddisk-symbolic")
    /// Runs once something changed the data the main window shows.
    var onChanged: @MainActor () -> Void = {}

    private let window: Window
    private let identity = ActionRow(title: localized("Your anonymous id"))
    private let export = Button(label: localized("_Export…"))
    private let importButton = Button(label: localized("_Import…"))
    private let delete = Button(label: localized("_Delete my data…"))
    private var confirmation: MessageDialog?
    /// What export or import said, and what deleting said, in full, under their groups.
    private let transferResult = Label("")
    private let deleteResult = Label("")

    init(window: Window) {
        self.window = window
        let id = PreferencesGroup(title: localized("Identity"))
        id.details = localized(
            "A random id, not your name: sent as x-user-id only to the AI service you set up, and kept on this computer."
        )
        identity.subtitle = localized("Not read yet")
        id.add(identity)
        page.add(id)

        let transfer = PreferencesGroup(title: localized("Export and import"))
        transfer.details = localized(
            "Everything you logged in one JSON file you can import again, here or on another computer.")
        let exportRow = ActionRow(
            title: localized("Export everything"), subtitle: localized("Moments, habits, rejections, swaps and more"))
        export.setAccessibleLabel(localized("Export everything"))
        export.onClicked { [unowned self] in chooseExport() }
        exportRow.addSuffix(export)
        transfer.add(exportRow)
        let importRow = ActionRow(
            title: localized("Import a file"),
            subtitle: localized("A Hooray export; what you have already stays, nothing is counted twice"))
        importButton.setAccessibleLabel(localized("Import a file"))
        importButton.onClicked { [unowned self] in chooseImport() }
        importRow.addSuffix(importButton)
        transfer.add(importRow)
        transfer.add(transferResult)
        page.add(transfer)

        let danger = PreferencesGroup(title: localized("Delete my data"))
        danger.details = localized(
            "Removes your notices, every plugin's data and your anonymous id from this computer. Your hooray.toml stays."
        )
        delete.addCSSClass("destructive-action")
        delete.addCSSClass("pill")
        delete.center()
        delete.setMargin(6)
        delete.onClicked { [unowned self] in confirmDelete() }
        danger.add(delete)
        danger.add(deleteResult)
        page.add(danger)
        for result in [transferResult, deleteResult] {
            result.wrapStart()
            result.setMargin(6)
            result.isVisible = false
        }
    }

    /// Reads your anonymous id, as `hooray identity --existing --json` tells it: none is made here.
    func refresh() {
        Task { @MainActor in
            switch await HoorayProgram.run(["identity", "--existing", "--json"]) {
            case .success(let outcome) where outcome.status == 0 && outcome.output.hasPrefix("null"):
                identity.title = localized("Your anonymous id")
                identity.subtitle = localized("None yet: Hooray makes one the next time it starts.")
            case .success(let outcome) where outcome.status == 0:
                let told = try? JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any]
                let store = (told?["store"] as? [String: Any])?["kind"] as? String
                identity.subtitle = told?["userId"] as? String ?? outcome.said
                identity.title =
                    store == "keyring"
                    ? localized("Your anonymous id, in your keyring") : localized("Your anonymous id, in a file")
            case .success(let outcome):
                identity.subtitle = outcome.said
            case .failure(let problem):
                identity.subtitle = problem.message
            }
        }
    }

    private func chooseExport() {
        let day = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withFullDate])
        let chooser = FileChooser(
            savingTitle: localized("Export everything"), parent: window, accept: localized("_Export"),
            suggestedName: "hooray-export-\(day).json")
        chooser.choose { [weak self] paths in
            guard let self, let path = paths.first else { return }
            run(["export", "-o", path], button: export, result: transferResult, doing: localized("export"))
        }
    }

    private func chooseImport() {
        let chooser = FileChooser(
            title: localized("Import a file"), parent: window, accept: localized("_Import"),
            filters: [
                .init(name: localized("Hooray exports"), patterns: ["*.json"]),
                .init(name: localized("All files"), patterns: ["*"]),
            ])
        chooser.choose { [weak self] paths in
            guard let self, let path = paths.first else { return }
            run(["import", path, "--apply"], button: importButton, result: transferResult, doing: localized("import")) {
                [weak self] in
                self?.onChanged()
            }
        }
    }

    /// Asks first: deleting cannot be undone.
    private func confirmDelete() {
        let dialog = MessageDialog(
            parent: window, heading: localized("Delete your data?"),
            body: localized(
                "Your moments, habits, rejections, swaps, notices and your anonymous id are removed from this computer. Your hooray.toml and an AI key in your keyring stay. This cannot be undone."
            ))
        dialog.addResponse("cancel", label: localized("_Cancel"))
        dialog.addResponse("delete", label: localized("_Delete"), appearance: .destructive)
        dialog.defaultResponse = "cancel"
        dialog.closeResponse = "cancel"
        dialog.onResponse { [unowned self] response in
            confirmation = nil
            guard response == "delete" else { return }
            run(
                ["delete-my-data", "--yes"], button: delete, result: deleteResult, doing: localized("delete your data")
            ) {
                [weak self] in
                self?.onChanged()
                self?.refresh()
            }
        }
        confirmation = dialog
        dialog.present()
    }

    /// Runs `hooray ARGUMENTS…`, `button` greyed out meanwhile, and shows what it said in full under
    /// its group, `result`.
    private func run(
        _ arguments: [String], button: Button, result: Label, doing what: String,
        then done: @escaping @MainActor () -> Void = {}
    ) {
        button.isSensitive = false
        result.isVisible = false
        Task { @MainActor in
            let said: String
            switch await HoorayProgram.run(arguments) {
            case .success(let outcome) where outcome.status == 0:
                said = outcome.said
                done()
            case .success(let outcome):
                let words = outcome.said
                said = localized("Couldn't %1$@: %2$@", what, words)
            case .failure(let problem):
                let words = problem.message
                said = localized("Couldn't %1$@: %2$@", what, words)
            }
            result.text = said
            result.isVisible = true
            button.isSensitive = true
        }
    }
}

/// Settings' "About" page: Hooray's version, where your data is kept, the links an administrator
/// set, and where to find help in a crisis — what `hooray about` says.
@MainActor
final class SettingsAboutPage {
    let page = PreferencesPage(title: localized("About"), iconName: "help-about-symbolic")
    private let version = ActionRow(title: localized("Version"))
    private let folder = ActionRow(title: localized("Your data is kept in"))
    private let crisis = Label("")
    private let links = PreferencesGroup(title: localized("Links"))
    private var linkRows: [ActionRow] = []

    init() {
        let hooray = PreferencesGroup(title: "Hooray")
        hooray.details = localized("Small wins, celebrated. Everything stays on this computer unless you set up AI.")
        hooray.add(version)
        hooray.add(folder)
        page.add(hooray)
        let help = PreferencesGroup(title: localized("If you are struggling"))
        // Shown whatever `hooray about` answers, or whether it answers at all.
        crisis.text = CrisisHelp.paragraph.split(separator: "\n").joined(separator: " ")
        crisis.wrapStart()
        crisis.setMargin(6)
        help.add(crisis)
        page.add(help)
        links.isVisible = false
        page.add(links)
    }

    /// Reads what `hooray about --json` says.
    func refresh() {
        Task { @MainActor in
            guard case .success(let outcome) = await HoorayProgram.run(["about", "--json"]), outcome.status == 0,
                let told = try? JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any]
            else { return }
            version.subtitle = told["version"] as? String ?? ""
            folder.subtitle = told["dataDirectory"] as? String ?? ""
            if let told = told["crisisHelp"] as? String { crisis.text = told }
            for row in linkRows { links.remove(row) }
            linkRows = [
                ("privacyUrl", localized("Privacy")), ("termsUrl", localized("Terms of use")),
                ("supportUrl", localized("Support")),
            ].compactMap { key, title in
                guard let url = told[key] as? String else { return nil }
                let row = ActionRow(title: title, subtitle: url)
                links.add(row)
                return row
            }
            links.isVisible = !linkRows.isEmpty
        }
    }
}
