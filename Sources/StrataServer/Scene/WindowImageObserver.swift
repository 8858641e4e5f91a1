import StrataModel

/// Told when a window's own pixels may have changed: a commit anywhere in its surface tree (its
/// popups included), or a model change that damaged it (frame, visibility, screen). The scene
/// asks this only while someone watches (`Scene.windowImageObserver` is nil otherwise): a
/// toplevel capture waiting for its window to change.
protocol WindowImageObserver: AnyObject {
    func windowImageDidChange(_ window: Window)
}
