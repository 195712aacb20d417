/// The notification center's parts that need no terminal and no libmpv: the durable store
/// (SQLite through GRDB), the socket protocol between `notiplay send` and `notiplay serve`, and
/// the server's queue.
public enum NotiplayCenter {}
