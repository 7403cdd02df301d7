package org.example.learn;
import org.junit.Test;
import static org.junit.Assert.assertTrue;
public class FlipTests {
    /** Fails in build 2 only; build 3 ran the same commit and it passed. */
    @Test public void testFlip() { assertTrue("lost the race with the flusher", !Builds.in(2)); }
}
