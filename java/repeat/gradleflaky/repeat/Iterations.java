package gradleflaky.repeat;

/**
 * How many times each selected test runs in this test JVM: the system property {@value #PROPERTY}, which
 * gradle-flaky's init script ({@code gradle/flaky-repeat.gradle}) sets on the Test task for one Gradle
 * invocation. Without it (or with a value below 1) every test runs once, as if the helper were absent.
 */
final class Iterations {

    static final String PROPERTY = "flaky.repeat.iters";

    private Iterations() {}

    static int get() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.trim().isEmpty()) {
            return 1;
        }
        try {
            return Math.max(1, Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + " must be a whole number, not '" + value + "'", e);
        }
    }
}
