/// A binary min-heap in an array: O(log n) insert and remove-min, O(1) peek, O(n) bulk build.
struct MinHeap<Element: Comparable> {
    private(set) var storage: [Element] = []

    init() {}

    /// Builds a heap from unordered elements in O(n).
    init(_ elements: [Element]) {
        storage = elements
        for index in stride(from: storage.count / 2 - 1, through: 0, by: -1) {
            siftDown(from: index)
        }
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.isEmpty }
    var min: Element? { storage.first }

    mutating func insert(_ element: Element) {
        storage.append(element)
        siftUp(from: storage.count - 1)
    }

    @discardableResult
    mutating func removeMin() -> Element? {
        guard !storage.isEmpty else { return nil }
        storage.swapAt(0, storage.count - 1)
        let removed = storage.removeLast()
        if !storage.isEmpty { siftDown(from: 0) }
        return removed
    }

    /// Every element for which `isIncluded` holds, in no particular order.
    ///
    /// `isIncluded` must never hold for an element when it fails for a smaller one (such as
    /// "due at or before now"), so that whole subtrees are pruned: the cost is proportional to the
    /// number of elements found, not to the size of the heap.
    func smallestElements(while isIncluded: (Element) -> Bool) -> [Element] {
        var found: [Element] = []
        var pending = storage.isEmpty ? [] : [0]
        while let index = pending.popLast() {
            guard isIncluded(storage[index]) else { continue }
            found.append(storage[index])
            if 2 * index + 1 < storage.count { pending.append(2 * index + 1) }
            if 2 * index + 2 < storage.count { pending.append(2 * index + 2) }
        }
        return found
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard storage[child] < storage[parent] else { return }
            storage.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < storage.count, storage[left] < storage[smallest] { smallest = left }
            if right < storage.count, storage[right] < storage[smallest] { smallest = right }
            if smallest == parent { return }
            storage.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

extension MinHeap: Sendable where Element: Sendable {}
