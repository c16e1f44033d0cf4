package wave.neo4j;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.GraphDatabaseService;
import org.neo4j.io.ByteUnit;

/**
 * Runs Neo4j embedded with only the Bolt connector, bound to 127.0.0.1.
 *
 * <p>Usage: {@code Launcher <home-dir> <bolt-port> [page-cache-mb]}. Writes {@code <home>/READY}
 * once the default database answers, and shuts the database down cleanly on SIGTERM.
 *
 * <p>Authentication is off (loopback only) unless {@code WAVE_NEO4J_AUTH_PASSWORD} is set in the
 * environment (not on the command line, where {@code ps} shows it): then Bolt checks
 * credentials like a production server, and the user {@code WAVE_NEO4J_AUTH_USER} (default
 * {@code neo4j}) gets that password, no change required, at every start.
 */
public final class Launcher {
    private Launcher() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: Launcher <home-dir> <bolt-port> [page-cache-mb]");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        long pageCacheMb = args.length > 2 ? Long.parseLong(args[2]) : 64L;
        Files.createDirectories(home);
        Path ready = home.resolve("READY");
        Files.deleteIfExists(ready);

        String password = System.getenv("WAVE_NEO4J_AUTH_PASSWORD");
        boolean auth = password != null && !password.isEmpty();
        String user = System.getenv().getOrDefault("WAVE_NEO4J_AUTH_USER", "neo4j");

        DatabaseManagementService service = new DatabaseManagementServiceBuilder(home)
                .setConfig(BoltConnector.enabled, true)
                .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
                .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
                .setConfig(HttpConnector.enabled, false)
                .setConfig(GraphDatabaseSettings.auth_enabled, auth)
                .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMb))
                .setConfig(GraphDatabaseSettings.transaction_timeout, Duration.ofSeconds(120))
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                Files.deleteIfExists(ready);
            } catch (Exception ignored) {
                // the READY marker is advisory; shutting the database down matters more
            }
            service.shutdown();
            stopped.countDown();
        }, "wave-neo4j-shutdown"));

        if (auth) {
            GraphDatabaseService system = service.database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME);
            String verb = "neo4j".equals(user) ? "ALTER USER" : "CREATE OR REPLACE USER";
            system.executeTransactionally(
                    verb + " $user SET PASSWORD $password CHANGE NOT REQUIRED",
                    java.util.Map.of("user", user, "password", password));
        }
        GraphDatabaseService db = service.database(GraphDatabaseSettings.DEFAULT_DATABASE_NAME);
        db.executeTransactionally("RETURN 1");
        Files.writeString(ready, Long.toString(ProcessHandle.current().pid()));
        System.out.println("wave-neo4j: bolt://127.0.0.1:" + port + " ready (home " + home + ", auth "
                + (auth ? "on for " + user : "off") + ")");
        System.out.flush();
        stopped.await();
    }
}
