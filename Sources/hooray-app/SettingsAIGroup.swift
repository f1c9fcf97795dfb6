import Foundation
import HoorayClient
import HoorayGtk

/// Settings' "AI praise": which service writes warmer praise (off, the Hooray backend, or one that
/// speaks OpenAI's chat completions, such as Ollama on this computer), its endpoint and model —
/// written to hooray.toml's `[ai]` like the other settings — and its API key, kept in the desktop's
/// keyring by `hooray ai set-key` (never in a file), with **Test** as `hooray ai test`.
@MainActor
final class SettingsAIGroup {
    /// The settings it shows, as `hooray config set` names them.
    static let keys = ["ai.provider", "ai.endpoint", "ai.model"]
    /// The values of ``provider``'s choices, in order.
    private static let providers = ["off", "hooray", "openai"]

    let group = PreferencesGroup(title: localized("AI praise"))
    /// The line under the group that names what went wrong.
    let problem = Label("")
    /// Runs with a setting to change (`nil`: removed from the file) and the control it came from.
    var onChange: @MainActor (String, String?, Widget) -> Void = { _, _, _ in }
    /// Runs with what to tell the user.
    var onNotice: @MainActor (String) -> Void = { _ in }

    private let provider = ComboRow(
        title: localized("Provider"),
        choices: [
            localized("Off: offline praise only"), localized("The Hooray backend"),
            localized("OpenAI-compatible, such as Ollama"),
        ])
    private let endpoint = EntryRow(title: localized("Endpoint"))
    private let model = EntryRow(title: localized("Model"))
    private let apiKey = EntryRow(title: localized("API key"), isPassword: true)
    private let saveKey = Button(iconName: "object-select-symbolic", name: localized("Save the API key"))
    private let forgetKey = Button(label: localized("_Forget the key"))
    private let test = Button(label: localized("_Test"))
    /// What the last **Test**, key saved or key forgotten said, line by line, as `hooray` prints it.
    private let testResult = Label("")
    /// The longest key `hooray ai set-key` takes.
    private static let longestKey = 4096
    /// While hoorayd's reading is shown: nothing is sent.
    private var showing = false
    /// The fields whose text was typed and not applied yet, by key: readings leave them.
    private var typed: Set<String> = []

    /// The controls marked invalid when a change is refused.
    var controls: [Widget] { [provider, endpoint, model] }

    init() {
        group.details = localized(
            "Warmer praise from an AI service, on top of the offline praise. Only your moment and your anonymous id are sent. Set the endpoint (and, for OpenAI-compatible ones, the model) first, then the provider."
        )
        for (field, key, name) in [
            (endpoint, "ai.endpoint", localized("Save the endpoint")), (model, "ai.model", localized("Save the model")),
        ] {
            let save = Button(iconName: "object-select-symbolic", name: name)
            save.addCSSClass("flat")
            field.addSuffix(save)
            let apply = { @MainActor [unowned self, unowned field] in
                let text = field.text.trimmingCharacters(in: .whitespaces)
                onChange(key, text.isEmpty ? nil : text, field)
            }
            field.onActivated(apply)
            save.onClicked(apply)
            field.onChanged { [unowned self] in
                if !showing { typed.insert(key) }
            }
            group.add(field)
        }
        group.add(provider)
        saveKey.addCSSClass("flat")
        apiKey.addSuffix(saveKey)
        saveKey.onClicked { [unowned self] in storeKey() }
        apiKey.onActivated { [unowned self] in storeKey() }
        group.add(apiKey)
        let buttons = Box(.horizontal, spacing: 12)
        buttons.center()
        buttons.setMargin(6)
        for button in [forgetKey, test] {
            button.addCSSClass("pill")
            buttons.append(button)
        }
        forgetKey.onClicked { [unowned self] in
            run(["ai", "forget-key"] + providerOption, button: forgetKey, doing: localized("forget the key"))
        }
        test.onClicked { [unowned self] in testService() }
        group.add(buttons)
        testResult.wrapStart()
        testResult.setMargin(6)
        testResult.isVisible = false
        group.add(testResult)
        group.add(problem)
        provider.onSelected { [unowned self] in
            guard !showing, provider.selected < Self.providers.count else { return }
            onChange("ai.provider", Self.providers[provider.selected], provider)
        }
    }

    /// Shows a setting as hoorayd read it; a field typed in and not applied keeps what was typed.
    func show(_ key: String, _ value: JSONValue?) {
        showing = true
        defer { showing = false }
        let text: String? = if case .string(let text)? = value { text } else { nil }
        switch key {
        case "ai.provider":
            provider.selected = Self.providers.firstIndex(of: text ?? "off") ?? 0
        case "ai.endpoint" where !typed.contains(key):
            endpoint.text = text ?? ""
        case "ai.model" where !typed.contains(key):
            model.text = text ?? ""
        default: break
        }
    }

    /// A change of `key` was applied: its field follows the file again.
    func applied(_ key: String) {
        typed.remove(key)
    }

    /// `--provider NAME` for the provider chosen, when it is one that takes a key.
    private var providerOption: [String] {
        let chosen = provider.selected < Self.providers.count ? Self.providers[provider.selected] : "off"
        return chosen == "off" ? [] : ["--provider", chosen]
    }

    /// Stores the key typed in the keyring, as `hooray ai set-key` does with it on its standard input;
    /// the field is emptied once it is kept.
    private func storeKey() {
        let key = apiKey.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !key.isEmpty else {
            onNotice(localized("Paste the API key into its field first."))
            return
        }
        guard key.utf8.count <= Self.longestKey else {
            onNotice(
                localized(
                    "That is longer than any API key (%ld characters at most); paste the key alone.", Self.longestKey))
            return
        }
        run(["ai", "set-key"] + providerOption, input: key + "\n", button: saveKey, doing: localized("keep the key")) {
            [weak self] in self?.apiKey.text = ""
        }
    }

    /// Asks the service for praise once, as `hooray ai test` does, and shows what it found under the
    /// buttons: the provider, the endpoint, the status, the time and the praise, or whose problem it is.
    private func testService() {
        test.isSensitive = false
        testResult.isVisible = false
        Task { @MainActor in
            switch await HoorayProgram.run(["ai", "test"]) {
            case .success(let outcome):
                testResult.text = outcome.status == 0 ? outcome.said : outcome.output + outcome.errors
            case .failure(let problem):
                testResult.text = problem.message
            }
            testResult.text = testResult.text.trimmingCharacters(in: .whitespacesAndNewlines)
            testResult.isVisible = true
            test.isSensitive = true
        }
    }

    /// Runs `hooray ARGUMENTS…`, `button` greyed out meanwhile, and shows what it said in full under
    /// the buttons.
    private func run(
        _ arguments: [String], input: String? = nil, button: Button, doing what: String,
        then done: @escaping @MainActor () -> Void = {}
    ) {
        button.isSensitive = false
        testResult.isVisible = false
        Task { @MainActor in
            let said: String
            switch await HoorayProgram.run(arguments, input: input) {
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
            testResult.text = said
            testResult.isVisible = true
            button.isSensitive = true
        }
    }
}
