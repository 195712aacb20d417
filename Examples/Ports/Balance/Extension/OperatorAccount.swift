/// The phone account behind the card, at the operator: the article's test app tops it up
/// "asynchronously" and does not print how. Here an actor of its own, so that a top-up is
/// answered off the main actor, after the card has said `.doNotDismiss`. The app's model, not
/// part of the seed's text.
actor OperatorAccount {
    /// What the account holds, in kopecks.
    private(set) var kopecks: Int

    /// An account holding `kopecks`.
    init(kopecks: Int) {
        self.kopecks = kopecks
    }

    /// Adds `amount` kopecks and returns the new balance.
    func topUp(by amount: Int) -> Int {
        kopecks += amount
        return kopecks
    }
}
