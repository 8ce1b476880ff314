export declare const REDIS_SERVER: string;
export interface RedisServer {
    readonly port: number;
    /** redis://127.0.0.1:PORT/QUEUE */
    url(queue: string): string;
    stop(): Promise<void>;
}
/** Why the queue's tests cannot run here (redis-server missing), or undefined. Throws in CI. */
export declare function redisMissing(): string | undefined;
export declare function startRedis(): Promise<RedisServer>;
