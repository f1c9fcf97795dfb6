import Foundation
import HoorayKit
import HoorayScheduling
import HoorayTesting
import Testing

@Suite("Scheduler state machine")
struct SchedulerStateTests {
    let standup = RuleKey(plugin: "reminders", reminder: "standup")
    let water = RuleKey(plugin: "reminders", reminder: "water")
    let stretch = RuleKey(plugin: "reminders", reminder: "stretch")
    let now = utc("2026-06-01T12:00:00Z")

    @Test("With no rules the loop waits without a timer")
    func emptyIsIdle() {
        #expect(SchedulerState().nextAction(now: now) == .idle)
    }

    @Test("Nothing due: sleep until the earliest due instant")
    func sleepUntilEarliest() {
        var state = SchedulerState()
        state.upsert(water, nextDue: now.addingTimeInterval(3600))
        state.upsert(standup, nextDue: now.addingTimeInterval(600))
        state.upsert(stretch, nextDue: now.addingTimeInterval(7200))
        #expect(state.nextAction(now: now) == .sleep(until: now.addingTimeInterval(600)))
    }

    @Test("Everything due at or before now fires, earliest first, and nothing later")
    func fireInDueOrder() {
        var state = SchedulerState()
        state.upsert(stretch, nextDue: now)
        state.upsert(water, nextDue: now.addingTimeInterval(-60))
        state.upsert(standup, nextDue: now.addingTimeInterval(-3600))
        state.upsert(RuleKey(plugin: "reminders", reminder: "later"), nextDue: now.addingTimeInterval(1))
        #expect(state.nextAction(now: now) == .fire([standup, water, stretch]))
    }

    @Test("Rules due at the same instant fire in a stable order by plugin, then reminder id")
    func tiesOrderedByKey() {
        var state = SchedulerState()
        let other = RuleKey(plugin: "birthdays", reminder: "zoe")
        state.upsert(water, nextDue: now)
        state.upsert(standup, nextDue: now)
        state.upsert(other, nextDue: now)
        #expect(state.nextAction(now: now) == .fire([other, standup, water]))
    }

    @Test("Thousands of rules declared at once for the same instant fire together in order by plugin, then reminder id")
    func manyTiesDeclaredAtOnceFireInKeyOrder() {
        var state = SchedulerState()
        state.upsert(RuleKey(plugin: "birthdays", reminder: "zoe"), nextDue: now)
        let ids = (0..<3_000).map { "r\(($0 * 7_919) % 3_000)" }
        state.replaceRules(of: "reminders", with: ids.map { (reminder: $0, nextDue: now) })
        let expected =
            [RuleKey(plugin: "birthdays", reminder: "zoe")]
            + ids.sorted().map {
                RuleKey(plugin: "reminders", reminder: $0)
            }
        #expect(state.nextAction(now: now) == .fire(expected))
    }

    @Test("A fired rule stays due until its next due instant is stored")
    func firedRuleStaysDue() {
        var state = SchedulerState()
        state.upsert(standup, nextDue: now)
        #expect(state.nextAction(now: now.addingTimeInterval(5)) == .fire([standup]))
        #expect(state.nextAction(now: now.addingTimeInterval(5)) == .fire([standup]))
        state.upsert(standup, nextDue: now.addingTimeInterval(86_400))
        #expect(state.nextAction(now: now.addingTimeInterval(5)) == .sleep(until: now.addingTimeInterval(86_400)))
    }

    @Test("Moving a rule later or earlier changes when the loop wakes up")
    func upsertChangesDueTime() {
        var state = SchedulerState()
        state.upsert(standup, nextDue: now.addingTimeInterval(600))
        state.upsert(water, nextDue: now.addingTimeInterval(1200))
        state.upsert(standup, nextDue: now.addingTimeInterval(1800))
        #expect(state.nextAction(now: now) == .sleep(until: now.addingTimeInterval(1200)))
        #expect(state.nextDue(for: standup) == now.addingTimeInterval(1800))
        state.upsert(standup, nextDue: now.addingTimeInterval(60))
        #expect(state.nextAction(now: now) == .sleep(until: now.addingTimeInterval(60)))
        // Back to an instant it had before: it must fire once, not once per time it was stored there.
        state.upsert(standup, nextDue: now.addingTimeInterval(1800))
        #expect(state.nextAction(now: now.addingTimeInterval(3600)) == .fire([water, standup]))
        #expect(state.count == 2)
    }

    @Test("A removed rule never fires; removing the last one makes the loop idle")
    func removal() {
        var state = SchedulerState()
        state.upsert(standup, nextDue: now.addingTimeInterval(-60))
        state.upsert(water, nextDue: now.addingTimeInterval(600))
        #expect(state.remove(standup) == now.addingTimeInterval(-60))
        #expect(state.remove(standup) == nil)
        #expect(state.nextAction(now: now) == .sleep(until: now.addingTimeInterval(600)))
        state.remove(water)
        #expect(state.nextAction(now: now) == .idle)
        #expect(state.isEmpty)
    }

    @Test("One-off rules that have fired leave nothing to wait for")
    func pastOnceRulesBecomeIdle() {
        var state = SchedulerState()
        let schedules = [
            standup: Schedule.once(at: now.addingTimeInterval(-30)),
            water: Schedule.once(at: now.addingTimeInterval(-10)),
        ]
        for (key, schedule) in schedules {
            state.upsert(key, nextDue: NextDue.next(after: now.addingTimeInterval(-3600), for: schedule))
        }
        guard case .fire(let keys) = state.nextAction(now: now) else {
            Issue.record("expected both one-offs to fire")
            return
        }
        #expect(keys == [standup, water])
        for key in keys {
            state.upsert(key, nextDue: NextDue.next(after: now, for: schedules[key]!))
        }
        #expect(state.nextAction(now: now) == .idle)
    }

    @Test("100,000 rules with many changes agree with a plain dictionary")
    func manyRulesMatchModel() {
        var generator = SeededRandomNumberGenerator(seed: 2026)
        var state = SchedulerState()
        var model: [RuleKey: Date] = [:]
        let keys = (0..<100_000).map { RuleKey(plugin: "load", reminder: "r\($0)") }
        func randomDue() -> Date { now.addingTimeInterval(TimeInterval(generator.next() % 2_000_000) - 1_000_000) }
        for key in keys {
            let due = randomDue()
            state.upsert(key, nextDue: due)
            model[key] = due
        }
        churn(&state, &model, keys: keys, times: 100_000, generator: &generator, spread: 1_000_000)
        let expected = model.filter { $0.value <= now }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }.map(\.key)
        #expect(state.count == model.count)
        #expect(state.nextAction(now: now) == .fire(expected))
        #expect(state.earliestDue == model.values.min())
        for key in expected { state.remove(key) }
        #expect(state.nextAction(now: now) == .sleep(until: model.values.filter { $0 > now }.min()!))
    }

    @Test("A plugin's rules declared all at once are planned exactly so, other plugins' rules as they were")
    func replacingAPluginsRulesAtOnce() {
        let habit = RuleKey(plugin: "habits", reminder: "walk")
        var state = SchedulerState([
            (key: standup, nextDue: now.addingTimeInterval(60)), (key: water, nextDue: now.addingTimeInterval(30)),
            (key: habit, nextDue: now.addingTimeInterval(90)), (key: stretch, nextDue: nil),
        ])
        #expect(state.count == 3, "a rule with no next due instant is not planned")
        #expect(state.nextAction(now: now) == .sleep(until: now.addingTimeInterval(30)))

        state.replaceRules(
            of: "reminders",
            with: [(reminder: "stretch", nextDue: now.addingTimeInterval(120)), (reminder: "standup", nextDue: nil)])

        #expect(state.keys(plugin: "reminders") == [stretch], "water is gone, standup will not come again")
        #expect(state.nextDue(for: habit) == now.addingTimeInterval(90), "another plugin's rule is untouched")
        #expect(state.nextAction(now: now) == .sleep(until: now.addingTimeInterval(90)))
        // Rules declared at once move and go one at a time afterwards, as any other.
        state.upsert(stretch, nextDue: now.addingTimeInterval(10))
        #expect(state.nextAction(now: now.addingTimeInterval(10)) == .fire([stretch]))
        state.remove(stretch)
        state.remove(habit)
        #expect(state.nextAction(now: now) == .idle)
    }

    @Test("Rules declared at once and then changed one by one agree with a plain dictionary")
    func rulesDeclaredAtOnceMatchModel() {
        var generator = SeededRandomNumberGenerator(seed: 32)
        let keys = (0..<20_000).map { RuleKey(plugin: $0 % 3 == 0 ? "habits" : "reminders", reminder: "r\($0)") }
        func randomDue() -> Date { now.addingTimeInterval(TimeInterval(generator.next() % 200_000) - 100_000) }
        var model = Dictionary(uniqueKeysWithValues: keys.map { ($0, randomDue()) })
        var state = SchedulerState(model.map { (key: $0.key, nextDue: $0.value) })
        for round in 0..<4 {
            // The reminders plugin declares its rules again: some kept, some moved, some gone.
            let declared = keys.filter { $0.plugin == "reminders" && generator.next() % 5 != 0 }.map {
                (reminder: $0.reminder, nextDue: generator.next() % 2 == 0 ? model[$0] ?? randomDue() : randomDue())
            }
            state.replaceRules(of: "reminders", with: declared)
            model = model.filter { $0.key.plugin != "reminders" }
            for rule in declared { model[RuleKey(plugin: "reminders", reminder: rule.reminder)] = rule.nextDue }
            churn(&state, &model, keys: keys, times: 5_000, generator: &generator, spread: 100_000)
            let expected = model.filter { $0.value <= now }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
            #expect(state.count == model.count, "round \(round)")
            #expect(state.nextAction(now: now) == .fire(expected.map(\.key)), "round \(round)")
            #expect(state.earliestDue == model.values.min(), "round \(round)")
        }
    }

    @Test("A plugin's rules planned aside (a plan made on another thread) fire as if replaced in place")
    func rulesPlannedAsideMatchReplacedInPlace() {
        var generator = SeededRandomNumberGenerator(seed: 34)
        let keys = (0..<12_000).map { RuleKey(plugin: $0 % 4 == 0 ? "habits" : "reminders", reminder: "r\($0)") }
        func randomDue() -> Date { now.addingTimeInterval(TimeInterval(generator.next() % 200_000) - 100_000) }
        let first = keys.map { (key: $0, nextDue: Optional(randomDue())) }
        var inPlace = SchedulerState(first)
        var aside = SchedulerState(first)
        for round in 0..<3 {
            // Declared again, with ids given twice (the last instant counts) and some never due again.
            var declared = keys.filter { $0.plugin == "reminders" && generator.next() % 5 != 0 }.map {
                (reminder: $0.reminder, nextDue: generator.next() % 10 == 0 ? nil : Optional(randomDue()))
            }
            declared += declared.prefix(300).map { (reminder: $0.reminder, nextDue: Optional(randomDue())) }
            inPlace.replaceRules(of: "reminders", with: declared)
            let plan = PluginPlan(count: declared.count) {
                declared[$0]
            }
            aside.replaceRules(of: "reminders", with: plan)
            for _ in 0..<2_000 {
                let key = keys[Int(generator.next() % UInt64(keys.count))]
                let due = generator.next() % 7 == 0 ? nil : Optional(randomDue())
                inPlace.upsert(key, nextDue: due)
                aside.upsert(key, nextDue: due)
            }
            #expect(aside.count == inPlace.count, "round \(round)")
            #expect(aside.earliestDue == inPlace.earliestDue, "round \(round)")
            #expect(aside.nextAction(now: now) == inPlace.nextAction(now: now), "round \(round)")
            let later = now.addingTimeInterval(50_000)
            #expect(aside.nextAction(now: later) == inPlace.nextAction(now: later), "round \(round)")
            #expect(keys.allSatisfy { aside.nextDue(for: $0) == inPlace.nextDue(for: $0) }, "round \(round)")
        }
    }

    @Test(
        "After a reload that keeps one plugin's rules, the others are planned as read and the plan is as if built anew")
    func reloadingAllButKeptPluginsMatchesModel() {
        var generator = SeededRandomNumberGenerator(seed: 33)
        let plugins = ["reminders", "habits", "water", "gone"]
        let keys = (0..<6_000).map { RuleKey(plugin: plugins[$0 % 4], reminder: "r\($0)") }
        func randomDue() -> Date { now.addingTimeInterval(TimeInterval(generator.next() % 200_000) - 100_000) }
        var model = Dictionary(uniqueKeysWithValues: keys.map { ($0, randomDue()) })
        var state = SchedulerState(model.map { (key: $0.key, nextDue: $0.value) })
        for round in 0..<4 {
            churn(&state, &model, keys: keys, times: 2_000, generator: &generator, spread: 100_000)
            // The reminders plugin's rules are kept; the database has habits and water as read now (some
            // moved, some gone, some new, some never due again), and "gone" is no longer planned.
            let read = keys.filter { ["habits", "water"].contains($0.plugin) && generator.next() % 5 != 0 }.map {
                (
                    key: $0,
                    nextDue: generator.next() % 7 == 0 ? nil : generator.next() % 2 == 0 ? model[$0] : randomDue()
                )
            }
            state.replaceRules(ofPluginsOtherThan: ["reminders"], with: read)
            model = model.filter { $0.key.plugin == "reminders" }
            for rule in read { model[rule.key] = rule.nextDue }
            let rebuilt = SchedulerState(model.map { (key: $0.key, nextDue: $0.value) })
            #expect(state.count == rebuilt.count, "round \(round)")
            #expect(state.keys(plugin: "gone").isEmpty, "round \(round)")
            #expect(state.nextAction(now: now) == rebuilt.nextAction(now: now), "round \(round)")
            #expect(state.earliestDue == rebuilt.earliestDue, "round \(round)")
            #expect(keys.map { state.nextDue(for: $0) } == keys.map { rebuilt.nextDue(for: $0) }, "round \(round)")
        }
    }
}

extension SchedulerStateTests {
    /// Random moves (within `spread` seconds of now) and removals, made to the state and the model alike.
    func churn(
        _ state: inout SchedulerState, _ model: inout [RuleKey: Date], keys: [RuleKey], times: Int,
        generator: inout SeededRandomNumberGenerator, spread: UInt64
    ) {
        for _ in 0..<times {
            let key = keys[Int(generator.next() % UInt64(keys.count))]
            if generator.next() % 4 == 0 {
                state.remove(key)
                model[key] = nil
            } else {
                let due = now.addingTimeInterval(TimeInterval(generator.next() % (2 * spread)) - TimeInterval(spread))
                state.upsert(key, nextDue: due)
                model[key] = due
            }
        }
    }
}
