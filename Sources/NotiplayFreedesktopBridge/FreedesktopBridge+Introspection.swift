extension FreedesktopBridge {
    /// What `Introspect` answers: the spec's interface, with KDE's `NotificationReplied` and the
    /// spec 1.2 `ActivationToken` signals.
    static let introspection = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.freedesktop.Notifications">
            <method name="GetCapabilities"><arg name="capabilities" direction="out" type="as"/></method>
            <method name="Notify">
              <arg name="app_name" direction="in" type="s"/>
              <arg name="replaces_id" direction="in" type="u"/>
              <arg name="app_icon" direction="in" type="s"/>
              <arg name="summary" direction="in" type="s"/>
              <arg name="body" direction="in" type="s"/>
              <arg name="actions" direction="in" type="as"/>
              <arg name="hints" direction="in" type="a{sv}"/>
              <arg name="expire_timeout" direction="in" type="i"/>
              <arg name="id" direction="out" type="u"/>
            </method>
            <method name="CloseNotification"><arg name="id" direction="in" type="u"/></method>
            <method name="GetServerInformation">
              <arg name="name" direction="out" type="s"/>
              <arg name="vendor" direction="out" type="s"/>
              <arg name="version" direction="out" type="s"/>
              <arg name="spec_version" direction="out" type="s"/>
            </method>
            <signal name="NotificationClosed"><arg name="id" type="u"/><arg name="reason" type="u"/></signal>
            <signal name="ActionInvoked"><arg name="id" type="u"/><arg name="action_key" type="s"/></signal>
            <signal name="ActivationToken"><arg name="id" type="u"/><arg name="activation_token" type="s"/></signal>
            <signal name="NotificationReplied"><arg name="id" type="u"/><arg name="text" type="s"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml_data" direction="out" type="s"/></method>
          </interface>
        </node>
        """
}
