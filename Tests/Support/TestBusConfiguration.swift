/// The configuration of a message bus of a test's own (`dbus-daemon --config-file`): a session
/// bus listening in the test's folder, anyone may own any name and see any message, limits far
/// above what a test sends, and no service is ever activated.
public enum TestBusConfiguration {
    /// The configuration file's text, for a bus listening in `folder`.
    public static func text(listeningIn folder: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(folder)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow receive_sender="*"/>
            <allow eavesdrop="true"/>
          </policy>
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="max_message_size">1000000000</limit>
          <limit name="max_replies_per_connection">50000</limit>
          <limit name="max_match_rules_per_connection">50000</limit>
          <limit name="max_connections_per_user">10000</limit>
          <limit name="max_completed_connections">10000</limit>
        </busconfig>
        """
    }
}
