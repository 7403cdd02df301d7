package org.example.learn;
import java.net.ConnectException;
import org.junit.Test;
public class NetTests {
    /** The shared cause: the local server is down in builds 2 and 4 (another port each time). */
    private static void call() throws ConnectException {
        if (Builds.in(2, 4)) {
            throw new ConnectException("Connection refused: localhost/127.0.0.1:" + (40000 + 1111 * Builds.n()));
        }
    }
    @Test public void testGet() throws Exception { call(); }
    @Test public void testPut() throws Exception { call(); }
    @Test public void testDelete() throws Exception { call(); }
}
