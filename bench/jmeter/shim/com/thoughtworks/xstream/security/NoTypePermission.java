package com.thoughtworks.xstream.security;

/**
 * Replaces XStream's NoTypePermission on JMeter's class path so that Debian's
 * JMeter 2.13 can load test plans with Debian's XStream 1.4.20: since 1.4.18
 * XStream denies every type not allowed explicitly, and JMeter 2.13 predates
 * that and allows none of its own. This class still denies every other type,
 * exactly like the original.
 */
public class NoTypePermission implements TypePermission {

    /** The permission XStream installs first: deny what nothing else allows. */
    public static final TypePermission NONE = new NoTypePermission();

    @Override
    public boolean allows(final Class type) {
        if (type != null) {
            final String name = type.getName();
            if (name.startsWith("org.apache.jmeter.") || name.startsWith("org.apache.jorphan.")) {
                return true;
            }
        }
        throw new ForbiddenClassException(type);
    }

    @Override
    public int hashCode() {
        return 1;
    }

    @Override
    public boolean equals(final Object obj) {
        return obj != null && obj.getClass() == NoTypePermission.class;
    }
}
