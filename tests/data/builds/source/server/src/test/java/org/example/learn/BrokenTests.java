package org.example.learn;
import org.junit.Test;
import static org.junit.Assert.assertEquals;
public class BrokenTests {
    /** Broken from build 4 (its commit) on. */
    @Test public void testBroken() { assertEquals("the default changed", 10, Builds.n() >= 4 ? 20 : 10); }
}
