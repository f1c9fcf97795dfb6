import Foundation

/// Identifies one scheduled rule: a plugin's reminder.
public struct RuleKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name of the plugin that owns the reminder, such as `reminders`.
    public var plugin: String
    /// The plugin's own id of the reminder, such as `standup`.
    public var reminder: String

    /// Creates a key.
    ///
    /// - Parameters:
    ///   - plugin: The name of the plugin that owns the reminder.
    ///   - reminder: The plugin's own id of the reminder.
    public init(plugin: String, reminder: String) {
        self.plugin = plugin
        self.reminder = reminder
    }

    /// The key as `plugin/reminder`, for logs and messages.
    public var description: String { "\(plugin)/\(reminder)" }

    /// Orders keys by plugin, then by reminder id, so that rules due at the same instant fire in a
    /// stable order.
    public static func < (lhs: RuleKey, rhs: RuleKey) -> Bool {
        (lhs.plugin, lhs.reminder) < (rhs.plugin, rhs.reminder)
    }
}

/// What the scheduler loop should do next, as decided by ``SchedulerState/nextAction(now:)``.
public enum SchedulerAction: Sendable, Hashable {
    /// Show these rules now: every rule due at or before now, earliest due first (ties by key).
    case fire([RuleKey])
    /// Nothing is due yet; wake up at this instant (by the wall clock, which may jump).
    case sleep(until: Date)
    /// Nothing will ever be due; wait for a change of rules without any timer.
    case idle
}

/// The scheduler's rules and their next due instants, as a state machine that returns actions
/// instead of sleeping.
///
/// The daemon's loop asks ``nextAction(now:)`` what to do, performs it (fires, sleeps until an
/// instant, or waits for a change), and reports the outcome back with ``upsert(_:nextDue:)`` and
/// ``remove(_:)``. Keeping the clock and the sleeping outside makes every decision testable with a
/// fixed `now`.
///
/// A fired rule stays due until the loop stores its new next due instant (or removes it), so a
/// crash between showing a notice and recording it cannot lose the occurrence.
///
/// Built for many rules: changes cost O(log n) amortised, ``nextAction(now:)`` costs O(1) when
/// nothing is due and O(k log k) when k rules are.
public struct SchedulerState: Sendable {
    /// A rule's entry in the heap, ordered by its due instant alone: rules due at the same instant
    /// are put in order by key when they fire, so building the heap of 100,000 rules compares no
    /// strings.
    fileprivate struct Entry: Comparable, Sendable {
        var due: Date
        var key: RuleKey
        /// Tells this entry apart from older ones for the same rule left in the heap.
        var generation: UInt64

        static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.due < rhs.due }
        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.due == rhs.due }
    }

    fileprivate struct Rule: Sendable {
        var due: Date
        var generation: UInt64
    }

    /// Each plugin's rules by reminder id: a plugin's rules are replaced all at once without
    /// touching the others', and each lookup hashes the reminder id alone.
    private var rules: [String: [String: Rule]] = [:]
    /// Holds the current entry of every rule, plus outdated entries that are dropped lazily.
    /// Invariant: the minimum, if any, is current.
    private var heap = MinHeap<Entry>()
    private var nextGeneration: UInt64 = 0

    /// Creates a state with no rules.
    public init() {}

    /// Creates a state holding these rules, in O(n) rather than one heap operation each.
    ///
    /// - Parameter times: Each rule and its next due instant; a rule with none is left out, and a
    ///   rule given twice keeps its last instant.
    public init(_ times: some Sequence<(key: RuleKey, nextDue: Date?)>) {
        for (key, nextDue) in times {
            guard let nextDue else { continue }
            rules[key.plugin, default: [:]][key.reminder] = Rule(due: nextDue, generation: 0)
        }
        nextGeneration = 1
        rebuildHeap()
    }

    /// The number of rules that will be due again.
    public var count: Int { rules.values.reduce(0) { $0 + $1.count } }

    /// Whether no rule will ever be due again.
    public var isEmpty: Bool { rules.isEmpty }

    /// The earliest next due instant of all rules, or `nil` when there are none.
    public var earliestDue: Date? { heap.min?.due }

    /// The stored next due instant of a rule, or `nil` when the rule is not held.
    ///
    /// - Parameter key: The rule.
    public func nextDue(for key: RuleKey) -> Date? { rules[key.plugin]?[key.reminder]?.due }

    /// Adds a rule or changes when it is next due.
    ///
    /// - Parameters:
    ///   - key: The rule.
    ///   - nextDue: Its next due instant; `nil` removes the rule, as for a one-off that has been shown.
    public mutating func upsert(_ key: RuleKey, nextDue: Date?) {
        guard let nextDue else {
            remove(key)
            return
        }
        if rules[key.plugin]?[key.reminder]?.due == nextDue { return }
        let generation = nextGeneration
        nextGeneration += 1
        rules[key.plugin, default: [:]][key.reminder] = Rule(due: nextDue, generation: generation)
        heap.insert(Entry(due: nextDue, key: key, generation: generation))
        dropOutdatedEntries()
    }

    /// Makes one plugin's rules exactly these, in O(n) rather than one heap operation each: what a
    /// plugin that declares all its reminders at once (thousands of them) needs.
    ///
    /// - Parameters:
    ///   - plugin: The plugin's name.
    ///   - times: Each of its reminders and its next due instant; one with none is left out, as
    ///     ``upsert(_:nextDue:)`` removes it.
    public mutating func replaceRules(of plugin: String, with times: some Sequence<(reminder: String, nextDue: Date?)>)
    {
        replaceRules(of: plugin, from: times)
    }

    /// ``replaceRules(of:with:)`` for an array, the form a plugin's 100,000 reminders come in: made
    /// for arrays here, rather than walked through generic calls for each rule from another module.
    public mutating func replaceRules(of plugin: String, with times: [(reminder: String, nextDue: Date?)]) {
        replaceRules(of: plugin, from: times)
    }

    private mutating func replaceRules(of plugin: String, from times: some Sequence<(reminder: String, nextDue: Date?)>)
    {
        // One new generation for them all: the heap is built again, so no older entry of theirs is left.
        let generation = nextGeneration
        nextGeneration += 1
        var fresh: [String: Rule] = [:]
        fresh.reserveCapacity(times.underestimatedCount)
        for (reminder, nextDue) in times {
            guard let nextDue else { continue }
            fresh[reminder] = Rule(due: nextDue, generation: generation)
        }
        rules[plugin] = fresh.isEmpty ? nil : fresh
        rebuildHeap()
    }

    /// A generation for a ``PluginPlan`` made away from the state: no rule planned after it has it.
    public mutating func reserveGeneration() -> UInt64 {
        defer { nextGeneration += 1 }
        return nextGeneration
    }

    /// Makes one plugin's rules exactly those of `plan`, as ``replaceRules(of:with:)`` does with the
    /// times it was made from, only the heap built again here.
    ///
    /// - Parameters:
    ///   - plugin: The plugin's name; the plan's times must be its rules.
    ///   - plan: Made with a generation from ``reserveGeneration()`` of this state.
    public mutating func replaceRules(of plugin: String, with plan: consuming PluginPlan) {
        rules[plugin] = plan.rules.isEmpty ? nil : plan.rules
        // Taken from the plan, not copied: the 100,000 entries are the heap's now.
        var entries: [Entry] = []
        swap(&entries, &plan.entries)
        entries.reserveCapacity(count)
        for (other, held) in rules where other != plugin {
            for (reminder, rule) in held {
                entries.append(
                    Entry(due: rule.due, key: RuleKey(plugin: other, reminder: reminder), generation: rule.generation))
            }
        }
        heap = MinHeap(entries)
    }

    /// Keeps the rules of the plugins in `kept` as they are and makes every other plugin's rules
    /// exactly those in `times`: what a reload needs when it knows some plugins' rules are current,
    /// so that their thousands of rules are not planned again.
    ///
    /// The same as ``init(_:)`` with the kept plugins' rules and `times`, at the cost of the other
    /// plugins' rules.
    ///
    /// - Parameters:
    ///   - kept: The plugins whose rules stay as they are.
    ///   - times: Each rule of the other plugins and its next due instant; a rule of a kept plugin
    ///     is ignored, one with no instant is left out, and a rule given twice keeps its last instant.
    public mutating func replaceRules(
        ofPluginsOtherThan kept: Set<String>, with times: some Sequence<(key: RuleKey, nextDue: Date?)>
    ) {
        var wanted: [RuleKey: Date?] = [:]
        for (key, nextDue) in times where !kept.contains(key.plugin) { wanted[key] = nextDue }
        // Collected first: removing while iterating would copy the rules. The kept plugins' rules
        // are not looked at.
        var gone: [RuleKey] = []
        for (plugin, held) in rules where !kept.contains(plugin) {
            for reminder in held.keys {
                let key = RuleKey(plugin: plugin, reminder: reminder)
                if wanted.index(forKey: key) == nil { gone.append(key) }
            }
        }
        for key in gone { remove(key) }
        for (key, nextDue) in wanted { upsert(key, nextDue: nextDue) }
    }

    /// The rules held for one plugin.
    ///
    /// - Parameter plugin: The plugin's name.
    /// - Returns: Their keys, in no particular order.
    public func keys(plugin: String) -> [RuleKey] {
        rules[plugin]?.keys.map { RuleKey(plugin: plugin, reminder: $0) } ?? []
    }

    /// Removes a rule.
    ///
    /// - Parameter key: The rule.
    /// - Returns: The next due instant it had, or `nil` when it was not held.
    @discardableResult
    public mutating func remove(_ key: RuleKey) -> Date? {
        guard let removed = rules[key.plugin]?.removeValue(forKey: key.reminder) else { return nil }
        if rules[key.plugin]?.isEmpty == true { rules[key.plugin] = nil }
        dropOutdatedEntries()
        return removed.due
    }

    /// Decides what the scheduler loop should do at `now`.
    ///
    /// - Parameter now: The current instant.
    /// - Returns: ``SchedulerAction/fire(_:)`` with every rule due at or before `now`, earliest first;
    ///   otherwise ``SchedulerAction/sleep(until:)`` with the earliest due instant; or
    ///   ``SchedulerAction/idle`` when there are no rules.
    public func nextAction(now: Date) -> SchedulerAction {
        guard let earliest = heap.min else { return .idle }
        guard earliest.due <= now else { return .sleep(until: earliest.due) }
        let due = heap.smallestElements { $0.due <= now }.filter(isCurrent).sorted {
            ($0.due, $0.key) < ($1.due, $1.key)
        }
        return .fire(due.map(\.key))
    }

    private func isCurrent(_ entry: Entry) -> Bool {
        rules[entry.key.plugin]?[entry.key.reminder]?.generation == entry.generation
    }

    /// Builds the heap again from the rules alone, every entry current, in O(n).
    private mutating func rebuildHeap() {
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for (plugin, held) in rules {
            for (reminder, rule) in held {
                entries.append(
                    Entry(due: rule.due, key: RuleKey(plugin: plugin, reminder: reminder), generation: rule.generation))
            }
        }
        heap = MinHeap(entries)
    }

    /// Keeps the heap's minimum current and its size within a constant factor of the rule count.
    private mutating func dropOutdatedEntries() {
        if heap.count > 2 * count + 64 {
            rebuildHeap()
            return
        }
        while let top = heap.min, !isCurrent(top) {
            heap.removeMin()
        }
    }
}

/// One plugin's rules made ready to be planned (``SchedulerState/replaceRules(of:with:)-(_,PluginPlan)``)
/// away from the state: with 100,000 reminders declared at a first start, on another thread while
/// SQLite finishes writing them.
public struct PluginPlan: Sendable {
    fileprivate var rules: [String: SchedulerState.Rule] = [:]
    fileprivate var entries: [SchedulerState.Entry] = []

    /// Makes the plan of `count` rules, each given by `time`; a rule with no next due instant is left
    /// out, and a rule given twice keeps its last instant.
    ///
    /// - Parameters:
    ///   - plugin: The plugin's name.
    ///   - generation: From ``SchedulerState/reserveGeneration()`` of the state it is for.
    ///   - count: How many rules there are.
    ///   - time: The reminder id and next due instant of the rule at each place.
    public init(
        plugin: String, generation: UInt64, count: Int, time: (Int) -> (reminder: String, nextDue: Date?)
    ) {
        rules.reserveCapacity(count)
        entries.reserveCapacity(count)
        var repeated = false
        for place in 0..<count {
            let (reminder, nextDue) = time(place)
            guard let nextDue else { continue }
            let rule = SchedulerState.Rule(due: nextDue, generation: generation)
            if rules.updateValue(rule, forKey: reminder) != nil { repeated = true }
            entries.append(
                SchedulerState.Entry(
                    due: nextDue, key: RuleKey(plugin: plugin, reminder: reminder), generation: generation))
        }
        // A rule given twice keeps its last instant, in one entry.
        if repeated {
            entries = rules.map {
                SchedulerState.Entry(
                    due: $0.value.due, key: RuleKey(plugin: plugin, reminder: $0.key), generation: generation)
            }
        }
    }
}
