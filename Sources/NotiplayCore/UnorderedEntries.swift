import OrderedCollections

/// Hashes key–value entries whatever their order, so that two collections with the same entries
/// hash alike whatever order they keep for output (a JSON object, a property-list dictionary).
func hashEntriesUnordered<Entries: Sequence, Key: Hashable, Value: Hashable>(
    _ entries: Entries, count: Int, into hasher: inout Hasher
) where Entries.Element == (key: Key, value: Value) {
    var combined = 0
    for entry in entries {
        var h = Hasher()
        h.combine(entry.key)
        h.combine(entry.value)
        combined ^= h.finalize()
    }
    hasher.combine(count)
    hasher.combine(combined)
}

extension OrderedDictionary where Value: Hashable {
    /// Whether `other` holds the same entries, whatever their order.
    func hasSameEntries(as other: Self) -> Bool {
        count == other.count && allSatisfy { other[$0.key] == $0.value }
    }

    /// Hashes the entries whatever their order, as ``hasSameEntries(as:)`` compares them.
    func hashEntries(into hasher: inout Hasher) {
        hashEntriesUnordered(self, count: count, into: &hasher)
    }
}
