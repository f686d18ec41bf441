{-# LANGUAGE DeriveGeneric #-}
{-# LANGUAGE DuplicateRecordFields #-}
{-# LANGUAGE OverloadedStrings #-}

-- | The Animal Store pet API as a Scotty developer writes it from the spec, with Scotty's defaults:
-- its routes and params (a query parameter that is missing or unreadable takes its default, as
-- `rescue` on `param` does; a capture that is unreadable passes the request on, as `param` does),
-- `jsonData` into records that aeson's generic instances read, a WAI middleware for the key, and
-- Error bodies from `defaultHandler` and `notFound`, served by warp.
--
-- Usage: API_KEY=... petapp  (listens on 127.0.0.1, port 0; prints "listening on PORT"; stops
-- when its stdin closes, so that it never outlives the test that started it)
module Main (main) where

import Control.Concurrent (forkIO, myThreadId, throwTo)
import Control.Exception (evaluate)
import Data.Aeson (FromJSON, ToJSON (..), Value, defaultOptions, encode, genericToJSON, object, omitNothingFields, (.=))
import qualified Data.ByteString.Char8 as B
import Data.IORef (IORef, atomicModifyIORef', newIORef, readIORef)
import Data.Int (Int64)
import Data.Text (Text)
import qualified Data.Text.Lazy as TL
import GHC.Generics (Generic)
import Network.HTTP.Types (Status, hAuthorization, hContentType, status400, status401, status404, status500, statusCode)
import qualified Network.Socket as N
import Network.Wai (Middleware, requestHeaders, responseLBS)
import qualified Network.Wai.Handler.Warp as Warp
import System.Environment (getEnv)
import System.Exit (ExitCode (ExitSuccess))
import System.IO (hFlush, hGetContents, stdin, stdout)
import Web.Scotty

data NewPet = NewPet {name :: Text, categoryId :: Int64, status :: Maybe Text}
  deriving (Generic)

instance FromJSON NewPet

data Pet = Pet {id :: Int64, name :: Text, categoryId :: Int64, status :: Maybe Text}
  deriving (Generic)

-- | A Pet with no status has no status member.
instance ToJSON Pet where
  toJSON = genericToJSON defaultOptions {omitNothingFields = True}

statuses :: [Text]
statuses = ["available", "pending", "sold"]

-- | The spec's Error body; its code is the status's words, in snake_case.
errorBody :: Int -> Text -> TL.Text -> Value
errorBody code word message = object ["code" .= word, "message" .= message, "status" .= code]

-- | Answers with an Error and ends the action.
failWith :: Status -> Text -> TL.Text -> ActionM a
failWith s word message = do
  Web.Scotty.status s
  json (errorBody (statusCode s) word message)
  finish

-- | Every request carries the key, or gets a 401 before any route.
requireKey :: B.ByteString -> Middleware
requireKey expected app request respond
  | lookup hAuthorization (requestHeaders request) == Just expected = app request respond
  | otherwise =
      respond $
        responseLBS status401 [(hContentType, "application/json")] $
          encode (errorBody 401 "unauthorized" "send Authorization: Bearer <key>")

routes :: B.ByteString -> IORef [Pet] -> ScottyM ()
routes expected pets = do
  middleware (requireKey expected)
  defaultHandler $ \message -> do
    Web.Scotty.status status500
    json (errorBody 500 "internal_server_error" message)

  get "/v1/pets" $ do
    limit <- param "limit" `rescue` (\_ -> return 20) :: ActionM Int
    filterBy <- (Just <$> param "status") `rescue` (\_ -> return Nothing) :: ActionM (Maybe Text)
    if limit < 1 || limit > 100
      then failWith status400 "invalid_query" "limit is an integer from 1 to 100"
      else case filterBy of
        Just s | s `notElem` statuses -> failWith status400 "invalid_query" "status is available, pending or sold"
        _ -> do
          all' <- liftAndCatchIO (readIORef pets)
          json (take limit [p | p <- reverse all', maybe True (\s -> petStatus p == Just s) filterBy])

  post "/v1/pets" $ do
    body <- jsonData `rescue` failWith status400 "validation_failed"
    case body of
      NewPet _ _ (Just s) | s `notElem` statuses -> failWith status400 "validation_failed" "status is available, pending or sold"
      NewPet n c s -> do
        pet <- liftAndCatchIO $ atomicModifyIORef' pets $ \ps ->
          let p = Pet (fromIntegral (length ps) + 1) n c s in (p : ps, p)
        Web.Scotty.status (toEnum 201)
        setHeader "Location" (TL.pack ("/v1/pets/" ++ show (petId pet)))
        json pet

  get "/v1/pets/:petId" $ do
    setHeader "Deprecation" "@1767225600"
    setHeader "Sunset" "Thu, 05 Dec 2030 00:00:00 GMT"
    setHeader "Link" "</v1/pets>; rel=\"successor-version\""
    wanted <- param "petId" :: ActionM Int64
    found <- liftAndCatchIO (readIORef pets)
    case [p | p <- found, petId p == wanted] of
      p : _ -> json p
      [] -> failWith status404 "not_found" (TL.pack ("no pet " ++ show wanted))

  notFound $ failWith status404 "not_found" "no such resource"
  where
    petId (Pet i _ _ _) = i
    petStatus (Pet _ _ _ s) = s

main :: IO ()
main = do
  key <- getEnv "API_KEY"
  pets <- newIORef []
  -- Stops when stdin closes.
  main' <- myThreadId
  _ <- forkIO $ do
    rest <- hGetContents stdin
    _ <- evaluate (length rest)
    throwTo main' ExitSuccess
  sock <- N.socket N.AF_INET N.Stream N.defaultProtocol
  N.bind sock (N.SockAddrInet 0 (N.tupleToHostAddress (127, 0, 0, 1)))
  N.listen sock 128
  port <- N.socketPort sock
  putStrLn ("listening on " ++ show port)
  hFlush stdout
  app <- scottyApp (routes (B.pack ("Bearer " ++ key)) pets)
  Warp.runSettingsSocket Warp.defaultSettings sock app
