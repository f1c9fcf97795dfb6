import Foundation
import OrderedCollections

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
/// Built for many rules: changes cost O(log n), ``nextAction(now:)`` costs O(1) when nothing is due
/// and O(k log k) when k rules are. And compact, since hoorayd holds every rule at rest (a million of
/// them in the benchmark): each rule is its id once, in its plugin's ordered set (a compact hash
/// table of places beside the ids), its next due instant as seconds, its place in the heap, and
/// one 16-byte heap entry that names the rule by numbers — about 50 bytes a rule, where a
/// dictionary of rules and a heap of keys took 130.
public struct SchedulerState: Sendable {
    /// A rule's entry in the heap: its due instant, ordered by alone (rules due at the same instant are
    /// put in order by key when they fire), and where the rule is.
    fileprivate struct Entry: Sendable {
        /// Seconds since the reference date, as `Date` keeps them.
        var due: Double
        /// The place of the rule's plugin in ``SchedulerState/plugins``.
        var plugin: UInt32
        /// The place of the rule in its plugin's ``Rules``.
        var slot: UInt32
    }

    /// One plugin's rules, each at a place (its slot) in all three arrays.
    fileprivate struct Rules: Sendable {
        var ids = OrderedSet<String>()
        /// Each rule's next due instant, in seconds since the reference date.
        var due: [Double] = []
        /// Each rule's place in the heap.
        var position: [UInt32] = []

        init() {}

        /// The rules given, in O(n); one with no instant is left out, and one given twice keeps its
        /// last instant. Their positions are set when the heap is built.
        init(count: Int, time: (Int) -> (reminder: String, nextDue: Date?)) {
            ids.reserveCapacity(count)
            due.reserveCapacity(count)
            for place in 0..<count {
                let (reminder, nextDue) = time(place)
                guard let nextDue else { continue }
                let (inserted, slot) = ids.append(reminder)
                if inserted {
                    due.append(nextDue.timeIntervalSinceReferenceDate)
                } else {
                    due[slot] = nextDue.timeIntervalSinceReferenceDate
                }
            }
            position = Array(repeating: 0, count: due.count)
        }
    }

    /// The plugins' names, each at the place its rules have in ``plugins``; a plugin is never taken
    /// out, its rules are emptied.
    private var names: [String] = []
    private var places: [String: Int] = [:]
    private var plugins: [Rules] = []
    /// Every rule once, the earliest due first.
    private var heap: [Entry] = []

    /// Creates a state with no rules.
    public init() {}

    /// Creates a state holding these rules, in O(n) rather than one heap operation each.
    ///
    /// - Parameter times: Each rule and its next due instant; a rule with none is left out, and a
    ///   rule given twice keeps its last instant.
    public init(_ times: some Sequence<(key: RuleKey, nextDue: Date?)>) {
        for (key, nextDue) in times {
            guard let nextDue else { continue }
            let plugin = place(of: key.plugin)
            let (inserted, slot) = plugins[plugin].ids.append(key.reminder)
            if inserted {
                plugins[plugin].due.append(nextDue.timeIntervalSinceReferenceDate)
                plugins[plugin].position.append(0)
            } else {
                plugins[plugin].due[slot] = nextDue.timeIntervalSinceReferenceDate
            }
        }
        rebuildHeap()
    }

    /// The number of rules that will be due again.
    public var count: Int { heap.count }

    /// Whether no rule will ever be due again.
    public var isEmpty: Bool { heap.isEmpty }

    /// The earliest next due instant of all rules, or `nil` when there are none.
    public var earliestDue: Date? { heap.first.map { Date(timeIntervalSinceReferenceDate: $0.due) } }

    /// The stored next due instant of a rule, or `nil` when the rule is not held.
    ///
    /// - Parameter key: The rule.
    public func nextDue(for key: RuleKey) -> Date? {
        guard let (plugin, slot) = find(key) else { return nil }
        return Date(timeIntervalSinceReferenceDate: plugins[plugin].due[slot])
    }

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
        let due = nextDue.timeIntervalSinceReferenceDate
        if let (plugin, slot) = find(key) {
            if plugins[plugin].due[slot] == due { return }
            plugins[plugin].due[slot] = due
            let position = Int(plugins[plugin].position[slot])
            heap[position].due = due
            siftUp(siftDown(position))
            return
        }
        let plugin = place(of: key.plugin)
        plugins[plugin].ids.append(key.reminder)
        plugins[plugin].due.append(due)
        plugins[plugin].position.append(UInt32(heap.count))
        heap.append(Entry(due: due, plugin: UInt32(plugin), slot: UInt32(plugins[plugin].due.count - 1)))
        siftUp(heap.count - 1)
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
        replaceRules(of: plugin, with: Array(times))
    }

    /// ``replaceRules(of:with:)`` for an array, the form a plugin's 100,000 reminders come in: made
    /// for arrays here, rather than walked through generic calls for each rule from another module.
    public mutating func replaceRules(of plugin: String, with times: [(reminder: String, nextDue: Date?)]) {
        let rules = Rules(count: times.count) { times[$0] }
        install(rules, of: plugin)
    }

    /// Makes one plugin's rules exactly those of `plan`, as ``replaceRules(of:with:)`` does with the
    /// times it was made from, only the heap built again here.
    ///
    /// - Parameters:
    ///   - plugin: The plugin's name; the plan's times must be its rules.
    ///   - plan: The plan of its rules.
    public mutating func replaceRules(of plugin: String, with plan: consuming PluginPlan) {
        install(plan.rules, of: plugin)
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
        for (plugin, name) in names.enumerated() where !kept.contains(name) {
            for reminder in plugins[plugin].ids {
                let key = RuleKey(plugin: name, reminder: reminder)
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
        guard let place = places[plugin] else { return [] }
        return plugins[place].ids.map { RuleKey(plugin: plugin, reminder: $0) }
    }

    /// Removes a rule.
    ///
    /// - Parameter key: The rule.
    /// - Returns: The next due instant it had, or `nil` when it was not held.
    @discardableResult
    public mutating func remove(_ key: RuleKey) -> Date? {
        guard let (plugin, slot) = find(key) else { return nil }
        let removed = plugins[plugin].due[slot]
        // Out of the heap: the last entry takes its place, and moves up or down from there.
        let position = Int(plugins[plugin].position[slot])
        let last = heap.removeLast()
        if position < heap.count {
            put(last, at: position)
            siftUp(siftDown(position))
        }
        // Out of the plugin's rules: the last rule takes its slot, and its heap entry is told.
        let end = plugins[plugin].due.count - 1
        if slot != end {
            plugins[plugin].ids.swapAt(slot, end)
            plugins[plugin].due.swapAt(slot, end)
            plugins[plugin].position.swapAt(slot, end)
            heap[Int(plugins[plugin].position[slot])].slot = UInt32(slot)
        }
        plugins[plugin].ids.removeLast()
        plugins[plugin].due.removeLast()
        plugins[plugin].position.removeLast()
        return Date(timeIntervalSinceReferenceDate: removed)
    }

    /// Decides what the scheduler loop should do at `now`.
    ///
    /// - Parameter now: The current instant.
    /// - Returns: ``SchedulerAction/fire(_:)`` with every rule due at or before `now`, earliest first;
    ///   otherwise ``SchedulerAction/sleep(until:)`` with the earliest due instant; or
    ///   ``SchedulerAction/idle`` when there are no rules.
    public func nextAction(now: Date) -> SchedulerAction {
        guard let earliest = heap.first else { return .idle }
        let limit = now.timeIntervalSinceReferenceDate
        guard earliest.due <= limit else { return .sleep(until: Date(timeIntervalSinceReferenceDate: earliest.due)) }
        // The entries due: a subtree whose root is not due holds none.
        var due: [(due: Double, key: RuleKey)] = []
        var pending = [0]
        while let index = pending.popLast() {
            let entry = heap[index]
            guard entry.due <= limit else { continue }
            due.append((entry.due, key(of: entry)))
            if 2 * index + 1 < heap.count { pending.append(2 * index + 1) }
            if 2 * index + 2 < heap.count { pending.append(2 * index + 2) }
        }
        return .fire(due.sorted { ($0.due, $0.key) < ($1.due, $1.key) }.map(\.key))
    }

    // MARK: The rules and the heap

    private func find(_ key: RuleKey) -> (plugin: Int, slot: Int)? {
        guard let plugin = places[key.plugin], let slot = plugins[plugin].ids.firstIndex(of: key.reminder) else {
            return nil
        }
        return (plugin, slot)
    }

    private func key(of entry: Entry) -> RuleKey {
        let plugin = Int(entry.plugin)
        return RuleKey(plugin: names[plugin], reminder: plugins[plugin].ids[Int(entry.slot)])
    }

    /// The place of a plugin's rules, made empty at its first rule.
    private mutating func place(of plugin: String) -> Int {
        if let place = places[plugin] { return place }
        names.append(plugin)
        plugins.append(Rules())
        places[plugin] = names.count - 1
        return names.count - 1
    }

    private mutating func install(_ rules: Rules, of plugin: String) {
        if rules.ids.isEmpty, places[plugin] == nil { return }
        plugins[place(of: plugin)] = rules
        rebuildHeap()
    }

    /// Builds the heap again from the rules alone, in O(n).
    private mutating func rebuildHeap() {
        heap = []
        heap.reserveCapacity(plugins.reduce(0) { $0 + $1.due.count })
        for plugin in plugins.indices {
            for slot in plugins[plugin].due.indices {
                plugins[plugin].position[slot] = UInt32(heap.count)
                heap.append(Entry(due: plugins[plugin].due[slot], plugin: UInt32(plugin), slot: UInt32(slot)))
            }
        }
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    /// Puts `entry` at `index` of the heap, and tells its rule where it is.
    private mutating func put(_ entry: Entry, at index: Int) {
        heap[index] = entry
        plugins[Int(entry.plugin)].position[Int(entry.slot)] = UInt32(index)
    }

    /// Moves the entry at `index` up while it is due before its parent; returns where it ends.
    @discardableResult
    private mutating func siftUp(_ start: Int) -> Int {
        let entry = heap[start]
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.due < heap[parent].due else { break }
            put(heap[parent], at: child)
            child = parent
        }
        put(entry, at: child)
        return child
    }

    /// Moves the entry at `index` down while a child is due before it; returns where it ends.
    @discardableResult
    private mutating func siftDown(_ start: Int) -> Int {
        let entry = heap[start]
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            let right = left + 1
            let earlier = right < heap.count && heap[right].due < heap[left].due ? right : left
            guard heap[earlier].due < entry.due else { break }
            put(heap[earlier], at: parent)
            parent = earlier
        }
        put(entry, at: parent)
        return parent
    }
}

/// One plugin's rules made ready to be planned (``SchedulerState/replaceRules(of:with:)-(_,PluginPlan)``)
/// away from the state: with 100,000 reminders declared at a first start, on another thread while
/// SQLite finishes writing them.
public struct PluginPlan: Sendable {
    fileprivate var rules: SchedulerState.Rules

    /// Makes the plan of `count` rules, each given by `time`; a rule with no next due instant is left
    /// out, and a rule given twice keeps its last instant.
    ///
    /// - Parameters:
    ///   - count: How many rules there are.
    ///   - time: The reminder id and next due instant of the rule at each place.
    public init(count: Int, time: (Int) -> (reminder: String, nextDue: Date?)) {
        rules = SchedulerState.Rules(count: count, time: time)
    }
}
