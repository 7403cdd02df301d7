package org.example.learn;
import org.junit.Test;
import static org.junit.Assert.assertEquals;
public class StableTests {
    @Test public void testOk() { assertEquals(4, 2 + 2); }
    @Test public void testAlsoOk() { assertEquals("ab", "a" + "b"); }
}
