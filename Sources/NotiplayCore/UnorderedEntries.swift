import OrderedCollections

/// Equality and hashing that ignore the order of an ordered dictionary's entries: a JSON object
/// and a property-list dictionary keep their order for output, but two with the same entries are
/// the same value.
extension OrderedDictionary where Value: Hashable {
    /// Whether `other` holds the same entries, whatever their order.
    func hasSameEntries(as other: Self) -> Bool {
        count == other.count && allSatisfy { other[$0.key] == $0.value }
    }

    /// Hashes the entries whatever their order, as ``hasSameEntries(as:)`` compares them.
    func hashEntries(into hasher: inout Hasher) {
        var combined = 0
        for entry in self {
            var h = Hasher()
            h.combine(entry.key)
            h.combine(entry.value)
            combined ^= h.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}
