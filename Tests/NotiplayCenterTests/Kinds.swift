import Testing

// The center's tests use a real SQLite file and real Unix sockets in scratch folders.
