;; The Animal Store pet API as a Clojure developer writes it from the spec with Ring and
;; Compojure's defaults: routes in a context, Ring's params middleware for the query, cheshire
;; for JSON bodies, clojure.core's parse-long for integers, a middleware for the key, an Error
;; body for every answer that is one, served by Ring's Jetty adapter.
;;
;; Usage: API_KEY=... clojure -cp JARS app.clj  (listens on 127.0.0.1, port 0; prints
;; "listening on PORT"; stops when its stdin closes, so that it never outlives the test that
;; started it)
(ns petapp
  (:require [cheshire.core :as json]
            [compojure.core :refer [GET POST context defroutes]]
            [compojure.route :as route]
            [ring.adapter.jetty :refer [run-jetty]]
            [ring.middleware.params :refer [wrap-params]]))

(def statuses #{"available" "pending" "sold"})

(def pets (atom []))

(defn answer
  ([status body] (answer status body {}))
  ([status body headers]
   {:status status
    :headers (merge {"Content-Type" "application/json"} headers)
    :body (json/generate-string body)}))

(defn fail [status code message]
  (answer status {"code" code "message" message "status" status}))

(def deprecation
  {"Deprecation" "@1767225600"
   "Sunset" "Thu, 05 Dec 2030 00:00:00 GMT"
   "Link" "</v1/pets>; rel=\"successor-version\""})

(defn list-pets [{:keys [query-params]}]
  (let [given (get query-params "limit")
        limit (if (nil? given) 20 (parse-long given))
        status (get query-params "status")]
    (cond
      (not (and limit (<= 1 limit 100))) (fail 400 "invalid_limit" "limit is an integer from 1 to 100")
      (and status (not (statuses status))) (fail 400 "invalid_status" "status is one of available, pending, sold")
      :else (answer 200 (->> @pets
                             (filter #(or (nil? status) (= status (get % "status"))))
                             (take limit))))))

(defn int64? [x]
  (and (integer? x) (<= Long/MIN_VALUE x Long/MAX_VALUE)))

(defn create-pet [{:keys [body]}]
  (let [new-pet (try (json/parse-string (slurp body)) (catch Exception _ ::unreadable))
        field #(when (map? new-pet) (get new-pet %))
        [name category status] (map field ["name" "categoryId" "status"])]
    (cond
      (= new-pet ::unreadable) (fail 400 "validation_failed" "the body is no JSON")
      (not (string? name)) (fail 400 "validation_failed" "name is a string, and required")
      (not (int64? category)) (fail 400 "validation_failed" "categoryId is an int64 integer, and required")
      (and (some? status) (not (statuses status))) (fail 400 "validation_failed" "status is one of available, pending, sold")
      :else
      (let [[_ now] (swap-vals! pets (fn [ps]
                                       (conj ps (cond-> (array-map "id" (inc (count ps)) "name" name "categoryId" category)
                                                  status (assoc "status" status)))))
            pet (peek now)]
        (answer 201 pet {"Location" (str "/v1/pets/" (get pet "id"))})))))

(defn get-pet [pet-id]
  (let [id (parse-long pet-id)
        pet (first (filter #(= id (get % "id")) @pets))]
    (cond
      (nil? id) (merge-with merge (fail 400 "invalid_pet_id" "petId is an int64 integer") {:headers deprecation})
      (nil? pet) (merge-with merge (fail 404 "not_found" "no such pet") {:headers deprecation})
      :else (answer 200 pet deprecation))))

(defroutes pet-routes
  (context "/v1" []
    (GET "/pets" request (list-pets request))
    (POST "/pets" request (create-pet request))
    (GET "/pets/:pet-id" [pet-id] (get-pet pet-id)))
  (route/not-found (fail 404 "not_found" "no such resource")))

(defn wrap-key [handler expected]
  (fn [request]
    (if (= (get-in request [:headers "authorization"]) expected)
      (handler request)
      (fail 401 "unauthorized" "send Authorization: Bearer <key>"))))

(defn -main []
  (let [key (System/getenv "API_KEY")
        app (-> pet-routes wrap-params (wrap-key (str "Bearer " key)))
        server (run-jetty app {:host "127.0.0.1" :port 0 :join? false})]
    (println "listening on" (.getLocalPort (first (.getConnectors server))))
    (flush)
    ;; Stops when stdin closes.
    (slurp *in*)
    (.stop server)
    (System/exit 0)))

(-main)
