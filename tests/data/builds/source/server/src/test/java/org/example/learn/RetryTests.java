package org.example.learn;
import org.junit.Test;
import static org.junit.Assert.assertTrue;
public class RetryTests {
    /** Fails in build 6; its retry (added to the report by hand, as the test-retry plugin writes it) passed. */
    @Test public void testRetried() { assertTrue("flushed too late", !Builds.in(6)); }
}
