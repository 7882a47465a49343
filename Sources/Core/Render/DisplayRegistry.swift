import Synchronization

/// The open displays, so that an image going away can be forgotten by every
/// backend that may have cached it.
final class DisplayRegistry: Sendable {
    static let shared = DisplayRegistry()

    private final class WeakDisplay: @unchecked Sendable {
        weak var display: Display?
        init(_ display: Display) { self.display = display }
    }

    private let displays = Mutex<[WeakDisplay]>([])

    func add(_ display: Display) {
        displays.withLock { list in
            list.removeAll { $0.display == nil }
            list.append(WeakDisplay(display))
        }
    }

    func remove(_ display: Display) {
        displays.withLock { list in list.removeAll { $0.display == nil || $0.display === display } }
    }

    func imageReleased(_ id: UInt64) {
        let open = displays.withLock { $0.compactMap(\.display) }
        for display in open { display.imageReleased(id) }
    }
}
