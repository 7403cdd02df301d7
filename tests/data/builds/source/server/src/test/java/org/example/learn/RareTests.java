package org.example.learn;
import org.junit.Test;
import static org.junit.Assert.assertFalse;
public class RareTests {
    /** Fails in builds 1 and 5, each the only build of its commit. */
    @Test public void testRare() { assertFalse("timed out after 30 seconds", Builds.in(1, 5)); }
}
