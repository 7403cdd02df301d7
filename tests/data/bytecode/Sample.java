package a.b;

import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.MethodSorters;
import org.junit.runners.Suite;

/** Test data of gradle-flaky's class-file reader (src/select/bytecode.rs). */
@RunWith(Suite.class)
@Suite.SuiteClasses({Sample.Nested.class})
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public abstract class Sample extends junit.framework.TestCase implements java.io.Serializable {
    static final long BIG = 1L << 40;
    static final double HALF = 0.5;
    static final String NAME = "sample";

    @Test(timeout = 10, expected = IllegalStateException.class)
    public void annotated() {}

    @Deprecated
    public void deprecated() {}

    public class Inner {}

    public static class Nested {}
}
